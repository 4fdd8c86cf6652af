// /api/v1/account/invitations with account keys: inviting (the mail through a real SMTP
// server, the token stored hashed), listing, revoking, and every refusal: a bad body, a
// role above the key's own, another account's invitation, a member or a pending invitation
// already, the member cap, the mail caps (nothing sent beyond them) and mail being off.
import { createHash } from 'node:crypto';
import { Invitation } from '../../../src/accounts/invitation.entity.js';
import { InvitationsService } from '../../../src/members/invitations.service.js';
import { INVITATION_SUBJECT } from '../../../src/notifications/email/invitation-mail.js';
import {
  createAccount,
  createAccountApiKey,
  createMember,
} from '../../factories/accounts.js';
import { errorBody } from '../../support/errors.js';
import { expectProblem } from '../../support/answers.js';
import { request } from '../../support/http.js';
import { TestSmtpServer } from '../../support/smtp-server.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

const PUBLIC_URL = 'https://forms.example.test';
const LINK =
  /https:\/\/forms\.example\.test\/dashboard\/invitations\/([A-Za-z0-9_-]{43})/;
const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const DAY_MS = 24 * 3600 * 1000;
const sha256 = (value: string) =>
  createHash('sha256').update(value).digest('hex');

let counter = 0;
const address = (prefix: string) =>
  `${prefix}${++counter}-${Date.now()}@example.com`;

describe('invitations API (e2e)', () => {
  let smtp: TestSmtpServer;
  let t: TestApp;

  beforeAll(async () => {
    smtp = await TestSmtpServer.start();
    t = await createTestApp({
      env: {
        SMTP_URL: smtp.url,
        MAIL_FROM: 'forms@example.com',
        PUBLIC_URL,
        MAX_MEMBERS_PER_ACCOUNT: '4',
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const settled = () => t.app.get(InvitationsService).settled();
  const invite = (apiKey: string, json: unknown) =>
    request(`${t.url}/api/v1/account/invitations`, { apiKey, json });
  const storedInvitation = (id: string) =>
    t.dataSource.getRepository(Invitation).findOneOrFail({
      where: { id },
      select: {
        id: true,
        accountId: true,
        email: true,
        role: true,
        tokenHash: true,
        invitedByUserId: true,
        invitedByLabel: true,
        expiresAt: true,
        revokedAt: true,
        acceptedAt: true,
      },
    });

  describe('invitations', () => {
    it('mails the address a link with the account, the key and the role; stores only its hash', async () => {
      const acme = await createAccount(t);
      const email = address('Sam');
      const before = Date.now();
      const res = await invite(acme.apiKey, { email, role: 'editor' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(/^[0-9A-Z]{26}$/),
        email: email.toLowerCase(),
        role: 'editor',
        expiresAt: expect.stringMatching(ISO_MS),
        createdAt: expect.stringMatching(ISO_MS),
        invitedBy: 'tests',
      });
      const expiresAt = Date.parse(res.body.expiresAt as string);
      expect(expiresAt).toBeGreaterThanOrEqual(before + 7 * DAY_MS - 1000);
      expect(expiresAt).toBeLessThanOrEqual(Date.now() + 7 * DAY_MS);
      await settled();

      const [mail, ...more] = smtp.to(email.toLowerCase());
      expect(more).toEqual([]);
      expect(mail.parsed.subject).toBe(INVITATION_SUBJECT);
      const text = mail.parsed.text ?? '';
      expect(text).toContain(
        `tests invited this address to the account "${acme.user.email}" on forms.example.test, as editor.`,
      );
      const token = LINK.exec(text)![1];
      // The whole message: who, where, the role and the link, nothing anyone typed for it.
      expect(text).toBe(
        [
          `tests invited this address to the account "${acme.user.email}" on forms.example.test, as editor.`,
          '',
          'To join, open the link below and sign in or create a password (the link works for 7 days and once):',
          `${PUBLIC_URL}/dashboard/invitations/${token}`,
          '',
          'If you do not expect this, ignore this message: nothing happens unless the link is used.',
          '',
        ].join('\n'),
      );
      expect(mail.envelope).toEqual({
        from: 'forms@example.com',
        to: [email.toLowerCase()],
      });
      const stored = await storedInvitation(res.body.id as string);
      expect(stored).toMatchObject({
        accountId: acme.account.id,
        email: email.toLowerCase(),
        role: 'editor',
        tokenHash: sha256(token),
        invitedByUserId: null,
        invitedByLabel: 'tests',
        revokedAt: null,
        acceptedAt: null,
      });
      expect(t.logs.join('\n')).not.toContain(token);

      const list = await request(`${t.url}/api/v1/account/invitations`, {
        apiKey: await createAccountApiKey(t, acme.account.id, 'r', 'viewer'),
      });
      expect(list.status).toBe(200);
      expect(list.body).toEqual({ data: [res.body] });
    });

    it('refuses a bad body (400), a role above the key (403) and another account’s invitation (404)', async () => {
      const acme = await createAccount(t);
      const bad = await invite(acme.apiKey, {
        email: 'not-an-address',
        role: 'chief',
      });
      expectProblem(
        bad,
        400,
        errorBody('Validation failed', [
          'email must be a valid email address',
          'role must be one of the following values: viewer, editor, developer, admin, owner',
        ]),
      );
      const missing = await invite(acme.apiKey, {});
      expectProblem(
        missing,
        400,
        errorBody('Validation failed', [
          'email is required',
          'role is required',
        ]),
      );

      const owner = await invite(acme.apiKey, {
        email: address('boss'),
        role: 'owner',
      });
      expectProblem(
        owner,
        403,
        errorBody('This key cannot make someone an owner'),
      );
      const editorKey = await createAccountApiKey(
        t,
        acme.account.id,
        'e',
        'editor',
      );
      const byEditor = await invite(editorKey, {
        email: address('x'),
        role: 'viewer',
      });
      expectProblem(byEditor, 403, errorBody('This key cannot manage members'));

      const created = await invite(acme.apiKey, {
        email: address('later'),
        role: 'viewer',
      });
      expect(created.status).toBe(201);
      const other = await createAccount(t);
      const foreign = await request(
        `${t.url}/api/v1/account/invitations/${created.body.id}`,
        { method: 'DELETE', apiKey: other.apiKey },
      );
      expectProblem(foreign, 404, errorBody('Invitation not found'));
      expect(
        (await storedInvitation(created.body.id as string)).revokedAt,
      ).toBeNull();
      await settled();
      expect(
        await t.dataSource.getRepository(Invitation).countBy({
          accountId: acme.account.id,
        }),
      ).toBe(1);
    });

    it('answers 409 for a member, a pending invitation and a full account', async () => {
      const acme = await createAccount(t);
      const member = await createMember(t, acme.account.id, 'viewer');
      const already = await invite(acme.apiKey, {
        email: member.email.toUpperCase(),
        role: 'editor',
      });
      expectProblem(
        already,
        409,
        errorBody('This address is already a member of the account'),
      );

      const first = address('twice');
      expect(
        (await invite(acme.apiKey, { email: first, role: 'viewer' })).status,
      ).toBe(201);
      const again = await invite(acme.apiKey, { email: first, role: 'admin' });
      expectProblem(
        again,
        409,
        errorBody(
          'This address already has a pending invitation: resend it or revoke it first',
        ),
      );

      // Owner + member + one pending = 3 of 4; one more fits, then the account is full.
      expect(
        (
          await invite(acme.apiKey, {
            email: address('fourth'),
            role: 'viewer',
          })
        ).status,
      ).toBe(201);
      await settled();
      const sent = smtp.messages.length;
      const full = await invite(acme.apiKey, {
        email: address('fifth'),
        role: 'viewer',
      });
      expect(full.status).toBe(409);
      expect(full.body.error).toMatch(
        /^This account already has 4 members and pending invitations/,
      );
      await settled();
      expect(smtp.messages.length).toBe(sent);

      // A revoked invitation no longer counts, and its link is dead.
      const list = await request(`${t.url}/api/v1/account/invitations`, {
        apiKey: acme.apiKey,
      });
      const pendingId = list.body.data[0].id as string;
      const revoked = await request(
        `${t.url}/api/v1/account/invitations/${pendingId}`,
        { method: 'DELETE', apiKey: acme.apiKey },
      );
      expect(revoked.status).toBe(204);
      expect((await storedInvitation(pendingId)).revokedAt).toBeInstanceOf(
        Date,
      );
      expect(
        (
          await request(`${t.url}/api/v1/account/invitations/${pendingId}`, {
            method: 'DELETE',
            apiKey: acme.apiKey,
          })
        ).status,
      ).toBe(404);
      expect(
        (await invite(acme.apiKey, { email: address('fifth'), role: 'viewer' }))
          .status,
      ).toBe(201);
    });

    it('sends one address at most 3 invitations a day across accounts: the 4th is 429 and not sent', async () => {
      const email = address('popular');
      for (let i = 0; i < 3; i++) {
        const account = await createAccount(t);
        expect(
          (await invite(account.apiKey, { email, role: 'viewer' })).status,
        ).toBe(201);
      }
      await settled();
      expect(smtp.to(email)).toHaveLength(3);
      const fourth = await createAccount(t);
      const res = await invite(fourth.apiKey, { email, role: 'viewer' });
      expect(res.status).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(res.body).toEqual(
        errorBody(
          'This address was sent as many invitations and confirmation links as it may receive for now: try again later',
        ),
      );
      await settled();
      expect(smtp.to(email)).toHaveLength(3);
      expect(
        await t.dataSource
          .getRepository(Invitation)
          .countBy({ accountId: fourth.account.id }),
      ).toBe(0);
    });
  });
});

describe('invitations without mail (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses to invite (409) and stores nothing', async () => {
    const acme = await createAccount(t);
    const res = await request(`${t.url}/api/v1/account/invitations`, {
      apiKey: acme.apiKey,
      json: { email: 'sam@example.com', role: 'viewer' },
    });
    expectProblem(
      res,
      409,
      errorBody(
        'Email is off on this server (SMTP_URL and MAIL_FROM are not set): invitations cannot be sent',
      ),
    );
    expect(await t.dataSource.getRepository(Invitation).count()).toBe(0);
  });
});
