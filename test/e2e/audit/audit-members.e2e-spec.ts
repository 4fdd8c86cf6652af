// Members, invitations, the account's name and domain verification each make exactly one
// audit event with its actor (the account key, the member in the dashboard, the person
// joining, the form key), target and details; a refused attempt makes none: an invitation
// made, resent and revoked, a person joining through the link (signed in, or signing up),
// a member leaving, the account renamed, and a domain verified against a real DNS server.
import { Invitation } from '../../../src/accounts/invitation.entity.js';
import { InvitationsService } from '../../../src/members/invitations.service.js';
import {
  createAccount,
  createMember,
  TEST_PASSWORD,
  type TestAccount,
} from '../../factories/accounts.js';
import { createForm } from '../../factories/forms.js';
import { DashboardClient } from '../../support/dashboard-client.js';
import {
  startDnsServer,
  type TestDnsServer,
} from '../../support/dns-server.js';
import { request } from '../../support/http.js';
import { TestSmtpServer } from '../../support/smtp-server.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import {
  eventsSince,
  storedEvents,
  type StoredEvent,
} from './audit-support.js';

const PUBLIC_URL = 'https://forms.example.test';
const LINK =
  /https:\/\/forms\.example\.test\/dashboard\/invitations\/([A-Za-z0-9_-]{43})/;

let counter = 0;
const freshEmail = (prefix: string) =>
  `${prefix}-${++counter}-${Date.now()}@example.com`;

describe('audit events of members, invitations, the account name and domains (e2e)', () => {
  let smtp: TestSmtpServer;
  let dns: TestDnsServer;
  let t: TestApp;
  let owner: TestAccount;
  let ip = 0;

  beforeAll(async () => {
    smtp = await TestSmtpServer.start();
    dns = await startDnsServer();
    t = await createTestApp({
      env: {
        SMTP_URL: smtp.url,
        MAIL_FROM: 'forms@example.com',
        PUBLIC_URL,
        TRUST_PROXY: '127.0.0.1',
        DNS_SERVERS: dns.address,
      },
    });
    owner = await createAccount(t);
  });
  afterAll(async () => {
    await t?.close();
    await dns?.close();
    await smtp?.close();
  });

  const api = (path: string) => `${t.url}/api/v1${path}`;
  const settled = () => t.app.get(InvitationsService).settled();

  /** A dashboard client from an address of its own (the sign-in limits stay out of the way). */
  function client(userAgent = 'audit-browser/1'): DashboardClient {
    const c = new DashboardClient(t.url);
    c.headers['x-forwarded-for'] = `198.51.100.${++ip}`;
    c.headers['user-agent'] = userAgent;
    return c;
  }

  async function signedIn(email: string): Promise<DashboardClient> {
    const c = client();
    expect((await c.logIn(email)).status).toBe(303);
    return c;
  }

  async function eventsOf(
    change: () => Promise<unknown>,
    accountId = owner.account.id,
  ): Promise<StoredEvent[]> {
    const before = (await storedEvents(t, accountId)).length;
    await change();
    return eventsSince(t, accountId, before);
  }

  /** Invites `email` by API with the owner's key: the invitation's id and its link's token. */
  async function invited(email: string, role = 'editor') {
    const res = await request(api('/account/invitations'), {
      apiKey: owner.apiKey,
      json: { email, role },
    });
    expect(res.status).toBe(201);
    await settled();
    return { id: res.body.id as string, token: latestToken(email) };
  }

  function latestToken(email: string): string {
    const mail = smtp.to(email).at(-1)!;
    return LINK.exec(mail.parsed.text ?? '')![1];
  }

  it('records an invitation made by an account key and by a member; a refused one is none', async () => {
    const email = freshEmail('invited');
    let id = '';
    const byKey = await eventsOf(async () => {
      ({ id } = await invited(email, 'developer'));
    });
    expect(byKey).toHaveLength(1);
    expect(byKey[0]).toMatchObject({
      action: 'member.invited',
      actorType: 'account-key',
      actorLabel: expect.stringMatching(/^fga_/),
      targetType: 'invitation',
      targetId: id,
      details: { email, role: 'developer' },
    });

    const refused = await eventsOf(async () => {
      // Again while pending (409), a key inviting an owner (403), a bad address (400).
      for (const [json, status] of [
        [{ email, role: 'viewer' }, 409],
        [{ email: freshEmail('owner'), role: 'owner' }, 403],
        [{ email: 'not-an-address', role: 'viewer' }, 400],
      ] as const) {
        const res = await request(api('/account/invitations'), {
          apiKey: owner.apiKey,
          json,
        });
        expect(res.status).toBe(status);
      }
    });
    expect(refused).toEqual([]);

    const admin = await createMember(t, owner.account.id, 'admin');
    const page = await signedIn(admin.email);
    const other = freshEmail('by-member');
    const byMember = await eventsOf(async () => {
      const res = await page.post(
        '/dashboard/members/invitations',
        { email: other, role: 'viewer' },
        { from: '/dashboard/members' },
      );
      expect(res.status).toBe(303);
    });
    expect(byMember).toHaveLength(1);
    expect(byMember[0]).toMatchObject({
      action: 'member.invited',
      actorType: 'member',
      actorId: admin.id,
      actorLabel: admin.email,
      userAgent: 'audit-browser/1',
      targetType: 'invitation',
      details: { email: other, role: 'viewer' },
    });
  });

  it('records an invitation resent with its new expiry; a refused resend is none', async () => {
    const email = freshEmail('resent');
    const { id, token } = await invited(email, 'viewer');
    const before = await t.dataSource
      .getRepository(Invitation)
      .findOneByOrFail({ id });
    const page = await signedIn(owner.user.email);
    const events = await eventsOf(async () => {
      const res = await page.post(
        `/dashboard/members/invitations/${id}/resend`,
        {},
        { from: '/dashboard/members' },
      );
      expect(res.status).toBe(303);
      await settled();
    });
    expect(events).toHaveLength(1);
    const after = await t.dataSource
      .getRepository(Invitation)
      .findOneByOrFail({ id });
    expect(events[0]).toMatchObject({
      action: 'invitation.resent',
      actorType: 'member',
      actorId: owner.user.id,
      actorLabel: owner.user.email,
      targetType: 'invitation',
      targetId: id,
      details: {
        email,
        role: 'viewer',
        expiresAt: {
          before: before.expiresAt.toISOString(),
          after: after.expiresAt.toISOString(),
        },
      },
    });
    // A new link went out; neither link is in the event.
    const newToken = latestToken(email);
    expect(newToken).not.toBe(token);
    expect(JSON.stringify(events)).not.toContain(newToken);
    expect(JSON.stringify(events)).not.toContain(token);

    const editor = await createMember(t, owner.account.id, 'editor');
    const editorPage = await signedIn(editor.email);
    const refused = await eventsOf(async () => {
      const forbidden = await editorPage.post(
        `/dashboard/members/invitations/${id}/resend`,
        {},
        { from: '/dashboard/members' },
      );
      expect(forbidden.status).toBe(403);
      const unknown = await page.post(
        '/dashboard/members/invitations/01JUNKNOWNINVITATION000000/resend',
        {},
        { from: '/dashboard/members' },
      );
      expect(unknown.status).toBe(404);
    });
    expect(refused).toEqual([]);
    expect(smtp.to(email)).toHaveLength(2);
  });

  it('records an invitation revoked by an account key; revoking it again is none', async () => {
    const email = freshEmail('revoked');
    const { id } = await invited(email, 'editor');
    const revoke = () =>
      request(api(`/account/invitations/${id}`), {
        method: 'DELETE',
        apiKey: owner.apiKey,
      });
    const events = await eventsOf(async () => {
      expect((await revoke()).status).toBe(204);
    });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      action: 'invitation.revoked',
      actorType: 'account-key',
      targetType: 'invitation',
      targetId: id,
      details: { email, role: 'editor' },
    });
    const again = await eventsOf(async () => {
      expect((await revoke()).status).toBe(404);
    });
    expect(again).toEqual([]);
  });

  it('records a person joining through the link, signed in or signing up, as the actor', async () => {
    const email = freshEmail('joiner');
    const joiner = await createAccount(t, email);
    const { id, token } = await invited(email, 'editor');
    const path = `/dashboard/invitations/${token}`;

    // Signed in as someone else: refused (403), nothing joins.
    const stranger = await signedIn(owner.user.email);
    const refused = await eventsOf(async () => {
      const res = await stranger.post(`${path}/accept`, {}, { from: path });
      expect(res.status).toBe(403);
    });
    expect(refused).toEqual([]);

    const page = await signedIn(email);
    const joined = await eventsOf(async () => {
      const res = await page.post(`${path}/accept`, {}, { from: path });
      expect(res.status).toBe(303);
    });
    expect(joined).toHaveLength(1);
    expect(joined[0]).toMatchObject({
      action: 'member.joined',
      actorType: 'member',
      actorId: joiner.user.id,
      actorLabel: email,
      targetType: 'member',
      targetId: joiner.user.id,
      details: { email, role: 'editor', invitationId: id },
    });
    // A used link: 410, none.
    const reused = await eventsOf(async () => {
      const res = await page.post(
        `${path}/accept`,
        {},
        { from: '/dashboard/members' },
      );
      expect(res.status).toBe(410);
    });
    expect(reused).toEqual([]);

    const newcomer = freshEmail('newcomer');
    const second = await invited(newcomer, 'viewer');
    const signUpPath = `/dashboard/invitations/${second.token}`;
    const visitor = client();
    const signedUp = await eventsOf(async () => {
      const weak = await visitor.post(
        `${signUpPath}/signup`,
        { password: 'short', confirmPassword: 'short' },
        { from: signUpPath },
      );
      expect(weak.status).toBe(400);
      const res = await visitor.post(
        `${signUpPath}/signup`,
        { password: TEST_PASSWORD, confirmPassword: TEST_PASSWORD },
        { from: signUpPath },
      );
      expect(res.status).toBe(303);
    });
    expect(signedUp).toHaveLength(1);
    expect(signedUp[0]).toMatchObject({
      action: 'member.joined',
      actorType: 'member',
      actorLabel: newcomer,
      targetType: 'member',
      details: { email: newcomer, role: 'viewer', invitationId: second.id },
    });
    expect(signedUp[0].actorId).toBe(signedUp[0].targetId);
  });

  it('records a member leaving; the last owner trying to leave is none', async () => {
    const member = await createMember(t, owner.account.id, 'viewer');
    const page = await signedIn(member.email);
    const left = await eventsOf(async () => {
      const res = await page.post(
        '/dashboard/members/leave',
        {},
        { from: '/dashboard/members' },
      );
      expect(res.status).toBe(303);
    });
    expect(left).toHaveLength(1);
    expect(left[0]).toMatchObject({
      action: 'member.left',
      actorType: 'member',
      actorId: member.id,
      actorLabel: member.email,
      targetType: 'member',
      targetId: member.id,
      details: { email: member.email, role: 'viewer' },
    });

    const solo = await createAccount(t);
    const ownerPage = await signedIn(solo.user.email);
    const refused = await eventsOf(async () => {
      const res = await ownerPage.post(
        '/dashboard/members/leave',
        {},
        { from: '/dashboard/members' },
      );
      expect(res.status).toBe(409);
    }, solo.account.id);
    expect(refused).toEqual([]);
  });

  it('records the account renamed, before and after; an invalid or refused rename is none', async () => {
    const page = await signedIn(owner.user.email);
    const before = (
      await t.dataSource.query<{ name: string }[]>(
        'SELECT name FROM account WHERE id = ?',
        [owner.account.id],
      )
    )[0].name;
    const renamed = await eventsOf(async () => {
      const res = await page.post(
        '/dashboard/members/name',
        { name: '  Acme Support  ' },
        { from: '/dashboard/members' },
      );
      expect(res.status).toBe(303);
    });
    expect(renamed).toHaveLength(1);
    expect(renamed[0]).toMatchObject({
      action: 'account.renamed',
      actorType: 'member',
      actorId: owner.user.id,
      targetType: 'account',
      targetId: owner.account.id,
      details: { name: { before, after: 'Acme Support' } },
    });

    const viewer = await createMember(t, owner.account.id, 'viewer');
    const viewerPage = await signedIn(viewer.email);
    const refused = await eventsOf(async () => {
      const empty = await page.post(
        '/dashboard/members/name',
        { name: '   ' },
        { from: '/dashboard/members' },
      );
      expect(empty.status).toBe(400);
      const forbidden = await viewerPage.post(
        '/dashboard/members/name',
        { name: 'Taken over' },
        { from: '/dashboard/members' },
      );
      expect(forbidden.status).toBe(403);
    });
    expect(refused).toEqual([]);
  });

  it('records a domain verified by a form key and in the dashboard; a check that verifies nothing is none', async () => {
    const form = await createForm(t, owner.account.id);
    const domains = (path = '') => api(`/forms/${form.form.id}/domains${path}`);
    const added = await request(domains(), {
      apiKey: form.apiKey,
      json: { domain: 'audited.example' },
    });
    expect(added.status).toBe(201);
    const verify = () =>
      request(domains('/audited.example/verify'), {
        method: 'POST',
        apiKey: form.apiKey,
      });
    const unverified = await eventsOf(async () => {
      const res = await verify();
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('pending');
    });
    expect(unverified).toEqual([]);

    dns.setTxt('audited.example', [added.body.record.value]);
    const verified = await eventsOf(async () => {
      const res = await verify();
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('verified');
    });
    expect(verified).toHaveLength(1);
    expect(verified[0]).toMatchObject({
      action: 'domain.verified',
      actorType: 'form-key',
      actorId: form.form.id,
      targetType: 'domain',
      details: { formId: form.form.id, domain: 'audited.example' },
    });
    // Checked again while verified: nothing changes, no event.
    const again = await eventsOf(async () => {
      expect((await verify()).status).toBe(200);
    });
    expect(again).toEqual([]);

    const other = await request(domains(), {
      apiKey: form.apiKey,
      json: { domain: 'dashboard-audited.example' },
    });
    dns.setTxt('dashboard-audited.example', [other.body.record.value]);
    const page = await signedIn(owner.user.email);
    const byMember = await eventsOf(async () => {
      const res = await page.post(
        `/dashboard/forms/${form.form.id}/domains/dashboard-audited.example/verify`,
        {},
        { from: `/dashboard/forms/${form.form.id}/settings` },
      );
      expect(res.status).toBe(303);
    });
    expect(byMember).toHaveLength(1);
    expect(byMember[0]).toMatchObject({
      action: 'domain.verified',
      actorType: 'member',
      actorId: owner.user.id,
      details: { formId: form.form.id, domain: 'dashboard-audited.example' },
    });
  });
});
