// The Members page through the real dashboard: every role reads it; owners and admins
// invite (the mail through a real SMTP server, within the caps: beyond them a 429 page and
// nothing sent), resend, revoke, change roles and remove; only owners touch owners; the
// last owner can be neither removed, demoted nor leave (409 page); any member may leave.
import { Account } from '../../../src/accounts/account.entity.js';
import { Invitation } from '../../../src/accounts/invitation.entity.js';
import { Membership } from '../../../src/accounts/membership.entity.js';
import { InvitationsService } from '../../../src/members/invitations.service.js';
import {
  createAccount,
  createMember,
  type TestAccount,
} from '../../factories/accounts.js';
import { DashboardClient, textOf } from '../../support/dashboard-client.js';
import { TestSmtpServer } from '../../support/smtp-server.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

const LINK = /\/dashboard\/invitations\/([A-Za-z0-9_-]{43})/;
let counter = 0;
const address = (prefix: string) =>
  `${prefix}${++counter}-${Date.now()}@example.com`;

describe('the Members page (e2e)', () => {
  let smtp: TestSmtpServer;
  let t: TestApp;
  let ip = 0;

  beforeAll(async () => {
    smtp = await TestSmtpServer.start();
    t = await createTestApp({
      env: {
        SMTP_URL: smtp.url,
        MAIL_FROM: 'forms@example.com',
        PUBLIC_URL: 'https://forms.example.test',
        TRUST_PROXY: '127.0.0.1',
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const settled = () => t.app.get(InvitationsService).settled();
  async function signedIn(email: string): Promise<DashboardClient> {
    const c = new DashboardClient(t.url);
    c.headers['x-forwarded-for'] = `192.0.2.${++ip}`;
    expect((await c.logIn(email)).status).toBe(303);
    return c;
  }
  const role = (accountId: string, userId: string) =>
    t.dataSource
      .getRepository(Membership)
      .findOneBy({ accountId, userId })
      .then((row) => row?.role ?? null);
  const pending = (accountId: string) =>
    t.dataSource
      .getRepository(Invitation)
      .find({ where: { accountId }, order: { createdAt: 'ASC' } });

  describe('as the owner', () => {
    let acme: TestAccount;
    let owner: DashboardClient;

    beforeAll(async () => {
      acme = await createAccount(t);
      owner = await signedIn(acme.user.email);
    });

    it('invites with the form, resends with a new link and revokes', async () => {
      const email = address('sam');
      const invited = await owner.post(
        '/dashboard/members/invitations',
        { email, role: 'developer' },
        { from: '/dashboard/members' },
      );
      expect(invited.status).toBe(303);
      expect(invited.location).toBe('/dashboard/members?done=invited');
      await settled();
      const [first] = smtp.to(email);
      expect(first.parsed.text).toContain(
        `${acme.user.email} invited this address to the account "${acme.user.email}" on forms.example.test, as developer.`,
      );
      const [row] = await pending(acme.account.id);
      expect(row).toMatchObject({
        email,
        role: 'developer',
        invitedByUserId: acme.user.id,
        invitedByLabel: acme.user.email,
      });

      const page = await owner.get('/dashboard/members?done=invited');
      expect(page.status).toBe(200);
      const text = textOf(page.html);
      expect(text).toContain('The invitation is on its way.');
      expect(text).toContain(email);
      const base = `/dashboard/members/invitations/${row.id}`;
      expect(page.html).toContain(`action="${base}/resend"`);

      const resent = await owner.post(
        `${base}/resend`,
        {},
        { from: '/dashboard/members' },
      );
      expect(resent.status).toBe(303);
      await settled();
      const mails = smtp.to(email);
      expect(mails).toHaveLength(2);
      const oldToken = LINK.exec(mails[0].parsed.text ?? '')![1];
      const newToken = LINK.exec(mails[1].parsed.text ?? '')![1];
      expect(newToken).not.toBe(oldToken);
      expect(
        (await owner.get(`/dashboard/invitations/${oldToken}`)).status,
      ).toBe(404);
      expect(
        (await owner.get(`/dashboard/invitations/${newToken}`)).status,
      ).toBe(200);

      const revoked = await owner.post(
        `${base}/revoke`,
        {},
        { from: '/dashboard/members' },
      );
      expect(revoked.status).toBe(303);
      expect((await pending(acme.account.id))[0].revokedAt).toBeInstanceOf(
        Date,
      );
      expect(
        (await owner.get(`/dashboard/invitations/${newToken}`)).status,
      ).toBe(410);
      expect(textOf((await owner.get('/dashboard/members')).html)).toContain(
        'No pending invitations.',
      );
    });

    it('shows a refused invitation beside the input it is about, and a CSRF-less post is refused', async () => {
      const bad = await owner.post(
        '/dashboard/members/invitations',
        { email: 'nope', role: 'viewer' },
        { from: '/dashboard/members' },
      );
      expect(bad.status).toBe(400);
      expect(bad.html).toContain('value="nope"');
      expect(textOf(bad.html)).toContain('Email must be a valid email address');
      const forged = await owner.post(
        '/dashboard/members/invitations',
        { email: address('csrf'), role: 'viewer' },
        { csrf: 'forged' },
      );
      expect(forged.status).toBe(403);
    });

    it('never lets the last owner go: not removed, not demoted, not leaving (409 page)', async () => {
      const demote = await owner.post(
        `/dashboard/members/${acme.user.id}/role`,
        { role: 'admin' },
        { from: '/dashboard/members' },
      );
      expect(demote.status).toBe(409);
      expect(textOf(demote.html)).toContain(
        'An account needs an owner: make another member an owner first',
      );
      const leave = await owner.post(
        '/dashboard/members/leave',
        {},
        { from: '/dashboard/members' },
      );
      expect(leave.status).toBe(409);
      expect(await role(acme.account.id, acme.user.id)).toBe('owner');

      // With a second owner, the first may step down.
      const second = await createMember(t, acme.account.id, 'viewer');
      const promoted = await owner.post(
        `/dashboard/members/${second.id}/role`,
        { role: 'owner' },
        { from: '/dashboard/members' },
      );
      expect(promoted.status).toBe(303);
      expect(await role(acme.account.id, second.id)).toBe('owner');
      const steppedDown = await owner.post(
        `/dashboard/members/${acme.user.id}/role`,
        { role: 'admin' },
        { from: '/dashboard/members' },
      );
      expect(steppedDown.status).toBe(303);
      expect(await role(acme.account.id, acme.user.id)).toBe('admin');

      // The remaining owner is the last one now.
      const secondClient = await signedIn(second.email);
      const remove = await secondClient.post(
        `/dashboard/members/${second.id}/remove`,
        {},
        { from: '/dashboard/members' },
      );
      expect(remove.status).toBe(409);
      expect(await role(acme.account.id, second.id)).toBe('owner');
    });
  });

  it('leaves one owner when two owners demote each other at the same moment', async () => {
    const acme = await createAccount(t);
    const second = await createMember(t, acme.account.id, 'owner');
    const [first, other] = await Promise.all([
      signedIn(acme.user.email),
      signedIn(second.email),
    ]);
    const answers = await Promise.all([
      first.post(
        `/dashboard/members/${second.id}/role`,
        { role: 'admin' },
        { from: '/dashboard/members' },
      ),
      other.post(
        `/dashboard/members/${acme.user.id}/role`,
        { role: 'admin' },
        { from: '/dashboard/members' },
      ),
    ]);
    // The loser is refused as the last owner (409), or, when the winner's change reached
    // it first, as an admin touching an owner (403): never both demoted.
    const [won, lost] = answers
      .map((page) => page.status)
      .sort((a, b) => a - b);
    expect(won).toBe(303);
    expect([403, 409]).toContain(lost);
    const roles = [
      await role(acme.account.id, acme.user.id),
      await role(acme.account.id, second.id),
    ];
    expect(roles.sort((a, b) => String(a).localeCompare(String(b)))).toEqual([
      'admin',
      'owner',
    ]);
  });

  it('keeps owners to owners: an admin can neither touch an owner nor invite one (403 page)', async () => {
    const acme = await createAccount(t);
    const admin = await createMember(t, acme.account.id, 'admin');
    const editor = await createMember(t, acme.account.id, 'editor');
    const client = await signedIn(admin.email);

    const page = await client.get('/dashboard/members');
    expect(page.status).toBe(200);
    expect(page.html).not.toContain(
      `action="/dashboard/members/${acme.user.id}/remove"`,
    );
    expect(page.html).toContain(
      `action="/dashboard/members/${editor.id}/remove"`,
    );
    expect(page.html).not.toContain('<option value="owner"');

    for (const [path, fields] of [
      [`/dashboard/members/${acme.user.id}/remove`, {}],
      [`/dashboard/members/${acme.user.id}/role`, { role: 'viewer' }],
      [`/dashboard/members/${editor.id}/role`, { role: 'owner' }],
      [
        '/dashboard/members/invitations',
        { email: address('o'), role: 'owner' },
      ],
    ] as const) {
      const refused = await client.post(path, fields, {
        from: '/dashboard/members',
      });
      expect(refused.status, path).toBe(403);
      expect(textOf(refused.html)).toMatch(
        /You cannot (make someone an owner|change an owner&#39;s membership)/,
      );
    }
    expect(await role(acme.account.id, acme.user.id)).toBe('owner');
    expect(await role(acme.account.id, editor.id)).toBe('editor');
    expect(await pending(acme.account.id)).toEqual([]);

    const changed = await client.post(
      `/dashboard/members/${editor.id}/role`,
      { role: 'developer' },
      { from: '/dashboard/members' },
    );
    expect(changed.status).toBe(303);
    expect(await role(acme.account.id, editor.id)).toBe('developer');
    const removed = await client.post(
      `/dashboard/members/${editor.id}/remove`,
      {},
      { from: '/dashboard/members' },
    );
    expect(removed.status).toBe(303);
    expect(await role(acme.account.id, editor.id)).toBeNull();
  });

  it('shows every role the list, lets a viewer leave, and refuses them any change (403 page)', async () => {
    const acme = await createAccount(t);
    const viewer = await createMember(t, acme.account.id, 'viewer');
    const client = await signedIn(viewer.email);
    const page = await client.get('/dashboard/members');
    expect(page.status).toBe(200);
    expect(textOf(page.html)).toContain(acme.user.email);
    expect(page.html).not.toContain('action="/dashboard/members/invitations"');

    const refused = await client.post(
      '/dashboard/members/invitations',
      { email: address('v'), role: 'viewer' },
      { from: '/dashboard/members' },
    );
    expect(refused.status).toBe(403);

    const left = await client.post(
      '/dashboard/members/leave',
      {},
      { from: '/dashboard/members' },
    );
    expect(left.status).toBe(303);
    expect(await role(acme.account.id, viewer.id)).toBeNull();
    // Member of nothing now: the next page sends them to sign in.
    expect((await client.get('/dashboard/forms')).status).toBe(303);
  });

  it('answers a 429 page beyond the account’s 30 mails a day, sending nothing more', async () => {
    const acme = await createAccount(t);
    const client = await signedIn(acme.user.email);
    // The day's budget is spent by earlier mail (confirmation links count too).
    await t.dataSource.query(
      'INSERT INTO mail_quota (subject, day, usedOnDay, unanswered, lastSentAt) VALUES (?, ?, 30, 0, ?)',
      [
        `account:${acme.account.id}`,
        new Date().toISOString().slice(0, 10),
        new Date().toISOString().replace('T', ' ').replace('Z', ''),
      ],
    );
    const email = address('capped');
    const before = smtp.messages.length;
    const capped = await client.post(
      '/dashboard/members/invitations',
      { email, role: 'viewer' },
      { from: '/dashboard/members' },
    );
    expect(capped.status).toBe(429);
    expect(Number(capped.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(textOf(capped.html)).toContain(
      'This account has sent as many invitations and confirmation links as it may today',
    );
    expect(capped.html).toContain(`value="${email}"`);
    await settled();
    expect(smtp.messages.length).toBe(before);
    expect(await pending(acme.account.id)).toEqual([]);
  });

  it('renames the account for owners and admins', async () => {
    const acme = await createAccount(t);
    const client = await signedIn(acme.user.email);
    const renamed = await client.post(
      '/dashboard/members/name',
      { name: '  Acme Sales ' },
      { from: '/dashboard/members' },
    );
    expect(renamed.status).toBe(303);
    expect(
      (
        await t.dataSource
          .getRepository(Account)
          .findOneByOrFail({ id: acme.account.id })
      ).name,
    ).toBe('Acme Sales');
    const empty = await client.post(
      '/dashboard/members/name',
      { name: ' ' },
      { from: '/dashboard/members' },
    );
    expect(empty.status).toBe(400);
    expect(textOf(empty.html)).toContain(
      'Name must be 1 to 200 characters long',
    );
  });
});
