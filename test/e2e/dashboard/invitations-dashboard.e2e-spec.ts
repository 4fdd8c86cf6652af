// The page behind an invitation's link (/dashboard/invitations/:token), through the real
// dashboard, a real SMTP server and the database: opening it changes nothing; the invited
// address accepts with a CSRF-protected button once signed in, or signs up from it (a user
// with no account of their own, verified by the link, also with SIGNUP_ENABLED=false);
// someone else signed in is told so; used, revoked and expired links answer 410.
import { Invitation } from '../../../src/accounts/invitation.entity.js';
import { Membership } from '../../../src/accounts/membership.entity.js';
import { User } from '../../../src/accounts/user.entity.js';
import { InvitationsService } from '../../../src/members/invitations.service.js';
import {
  createAccount,
  TEST_PASSWORD,
  type TestAccount,
} from '../../factories/accounts.js';
import {
  DashboardClient,
  freshEmail,
  textOf,
} from '../../support/dashboard-client.js';
import { request } from '../../support/http.js';
import { TestSmtpServer } from '../../support/smtp-server.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

const PUBLIC_URL = 'https://forms.example.test';
const LINK =
  /https:\/\/forms\.example\.test\/dashboard\/invitations\/([A-Za-z0-9_-]{43})/;
/** The page's text as read aloud: no space left before punctuation after a tag. */
const says = (html: string) => textOf(html).replace(/ ([.,])/g, '$1');

describe('the invitation page (e2e)', () => {
  let smtp: TestSmtpServer;
  let t: TestApp;
  let acme: TestAccount;
  let ip = 0;

  beforeAll(async () => {
    smtp = await TestSmtpServer.start();
    t = await createTestApp({
      env: {
        SMTP_URL: smtp.url,
        MAIL_FROM: 'forms@example.com',
        PUBLIC_URL,
        TRUST_PROXY: '127.0.0.1',
        SIGNUP_ENABLED: 'false',
      },
    });
    acme = await createAccount(t);
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  /** A client from an address of its own, so the sign-up limit stays out of the way. */
  function client(): DashboardClient {
    const c = new DashboardClient(t.url);
    c.headers['x-forwarded-for'] = `198.51.100.${++ip}`;
    return c;
  }

  /** Invites `email` into acme with `role` by API; answers the link's token and the id. */
  async function invite(email: string, role = 'editor') {
    const res = await request(`${t.url}/api/v1/account/invitations`, {
      apiKey: acme.apiKey,
      json: { email, role },
    });
    expect(res.status).toBe(201);
    await t.app.get(InvitationsService).settled();
    const mail = smtp.to(email).at(-1)!;
    return {
      token: LINK.exec(mail.parsed.text ?? '')![1],
      id: res.body.id as string,
    };
  }
  const membership = (userId: string) =>
    t.dataSource
      .getRepository(Membership)
      .findOneBy({ accountId: acme.account.id, userId });
  const invitationRow = (id: string) =>
    t.dataSource.getRepository(Invitation).findOneByOrFail({ id });
  const userRow = (email: string) =>
    t.dataSource.getRepository(User).findOneBy({ email });

  it('lets a signed-in invitee accept with the button; the link is used once', async () => {
    const email = freshEmail('invitee');
    const invitee = await createAccount(t, email, { verified: false });
    const { token, id } = await invite(email, 'editor');
    const path = `/dashboard/invitations/${token}`;

    const visitor = client();
    const opened = await visitor.get(path);
    expect(opened.status).toBe(200);
    expect(opened.headers.get('cache-control')).toBe('no-store');
    expect(opened.headers.get('referrer-policy')).toBe('no-referrer');
    const text = says(opened.html);
    expect(text).toContain(
      `tests invited ${email} to the account ${acme.user.email} as Editor.`,
    );
    const login = `/dashboard/login?next=${encodeURIComponent(path)}&amp;email=${encodeURIComponent(email)}`;
    expect(opened.html).toContain(`href="${login}"`);
    // Opening the link (what a mail scanner does) changes nothing.
    expect(await membership(invitee.user.id)).toBeNull();

    const loginPage = await visitor.get(login.replace('&amp;', '&'));
    expect(loginPage.status).toBe(200);
    expect(loginPage.html).toContain(`value="${email}"`);
    const signedIn = await visitor.post(
      `/dashboard/login?next=${encodeURIComponent(path)}`,
      { email, password: TEST_PASSWORD },
      { from: '/dashboard/login' },
    );
    expect(signedIn.status).toBe(303);
    expect(signedIn.location).toBe(path);

    const page = await visitor.get(path);
    expect(page.status).toBe(200);
    expect(page.html).toContain(`<form method="post" action="${path}/accept"`);
    const forged = await visitor.post(`${path}/accept`, {}, { csrf: 'forged' });
    expect(forged.status).toBe(403);
    expect(await membership(invitee.user.id)).toBeNull();

    const accepted = await visitor.post(`${path}/accept`, {}, { from: path });
    expect(accepted.status).toBe(303);
    expect(accepted.location).toBe('/dashboard/members?done=joined');
    expect(await membership(invitee.user.id)).toMatchObject({ role: 'editor' });
    expect((await invitationRow(id)).acceptedAt).toBeInstanceOf(Date);
    // The link proved the address.
    expect((await userRow(email))!.emailVerifiedAt).toBeInstanceOf(Date);

    // The session now works in the account joined.
    const members = await visitor.get(accepted.location!);
    expect(members.status).toBe(200);
    expect(textOf(members.html)).toContain(`Welcome: you joined the account.`);
    expect(textOf(members.html)).toContain(acme.user.email);

    const reused = await visitor.get(path);
    expect(reused.status).toBe(410);
    expect(textOf(reused.html)).toContain('This invitation was already used');
    const again = await visitor.post(
      `${path}/accept`,
      {},
      { csrf: page.html.match(/name="_csrf" value="([^"]+)"/)![1] },
    );
    expect(again.status).toBe(410);
  });

  it('signs a new person up from the link: verified, a member, no account of their own', async () => {
    const email = freshEmail('newcomer');
    const { token, id } = await invite(email, 'viewer');
    const path = `/dashboard/invitations/${token}`;
    const visitor = client();

    const page = await visitor.get(path);
    expect(page.status).toBe(200);
    expect(page.html).toContain(`<form method="post" action="${path}/signup"`);
    expect(page.html).toMatch(
      new RegExp(
        `id="email" name="email" type="email" value="${email}"[^>]* readonly`,
      ),
    );
    // Public sign-up is off on this server, but an invitation is the account's choice.
    expect((await visitor.get('/dashboard/signup')).html).toContain(
      'Sign-up is turned off',
    );

    const mismatch = await visitor.post(
      `${path}/signup`,
      { password: TEST_PASSWORD, confirmPassword: 'something-else-1' },
      { from: path },
    );
    expect(mismatch.status).toBe(400);
    expect(textOf(mismatch.html)).toContain('The two passwords do not match');
    const weak = await visitor.post(
      `${path}/signup`,
      { password: 'short', confirmPassword: 'short' },
      { from: path },
    );
    expect(weak.status).toBe(400);
    expect(await userRow(email)).toBeNull();

    const joined = await visitor.post(
      `${path}/signup`,
      { password: TEST_PASSWORD, confirmPassword: TEST_PASSWORD },
      { from: path },
    );
    expect(joined.status).toBe(303);
    expect(joined.location).toBe('/dashboard/members?done=joined');
    const user = (await userRow(email))!;
    expect(user.emailVerifiedAt).toBeInstanceOf(Date);
    expect(
      await t.dataSource.getRepository(Membership).findBy({ userId: user.id }),
    ).toEqual([
      expect.objectContaining({ accountId: acme.account.id, role: 'viewer' }),
    ]);
    expect((await invitationRow(id)).acceptedAt).toBeInstanceOf(Date);

    const members = await visitor.get('/dashboard/members');
    expect(members.status).toBe(200);
    expect(textOf(members.html)).toContain(email);
    // The password works for signing in later.
    expect((await client().logIn(email)).status).toBe(303);
    // The link is used: signing up from it again is refused.
    const twice = await client().post(
      `${path}/signup`,
      { password: TEST_PASSWORD, confirmPassword: TEST_PASSWORD },
      { from: '/dashboard/login' },
    );
    expect(twice.status).toBe(410);
  });

  it('lets a person who belongs to no account any more sign in on the invitation and join', async () => {
    const email = freshEmail('returning');
    const gone = await createAccount(t, email);
    // They left: their only membership is gone, so the sign-in page has nowhere to take them.
    await t.dataSource
      .getRepository(Membership)
      .delete({ userId: gone.user.id });
    expect((await client().logIn(email)).status).toBe(403);

    const { token } = await invite(email, 'developer');
    const path = `/dashboard/invitations/${token}`;
    const visitor = client();
    const page = await visitor.get(path);
    expect(page.status).toBe(200);
    expect(page.html).toContain(`<form method="post" action="${path}/login"`);
    const wrong = await visitor.post(
      `${path}/login`,
      { password: 'not-the-password-1' },
      { from: path },
    );
    expect(wrong.status).toBe(401);
    expect(textOf(wrong.html)).toContain('That password is not right');
    expect(await membership(gone.user.id)).toBeNull();

    const joined = await visitor.post(
      `${path}/login`,
      { password: TEST_PASSWORD },
      { from: path },
    );
    expect(joined.status).toBe(303);
    expect(joined.location).toBe('/dashboard/members?done=joined');
    expect(await membership(gone.user.id)).toMatchObject({ role: 'developer' });
    expect((await visitor.get('/dashboard/members')).status).toBe(200);
    expect((await userRow(email))!.lastSignInAt).toBeInstanceOf(Date);
  });

  it('tells someone else signed in that the invitation is not theirs, and refuses their Accept', async () => {
    const email = freshEmail('intended');
    const { token } = await invite(email);
    const path = `/dashboard/invitations/${token}`;
    const other = await createAccount(t);
    const visitor = client();
    expect((await visitor.logIn(other.user.email)).status).toBe(303);

    const page = await visitor.get(path);
    expect(page.status).toBe(200);
    expect(says(page.html)).toContain(
      `This invitation is for ${email}, and you are signed in as ${other.user.email}.`,
    );
    expect(page.html).not.toContain(`action="${path}/accept"`);
    const accepted = await visitor.post(`${path}/accept`, {}, { from: path });
    expect(accepted.status).toBe(403);
    expect(textOf(accepted.html)).toContain(
      'This invitation was sent to another address',
    );
    expect(await membership(other.user.id)).toBeNull();
  });

  it('answers 410 for revoked and expired links and 404 for unknown ones, joining no one', async () => {
    const revokedEmail = freshEmail('revoked');
    const revoked = await invite(revokedEmail);
    const revoke = await request(
      `${t.url}/api/v1/account/invitations/${revoked.id}`,
      { method: 'DELETE', apiKey: acme.apiKey },
    );
    expect(revoke.status).toBe(204);
    const expiredEmail = freshEmail('expired');
    const expired = await invite(expiredEmail);
    await t.dataSource
      .getRepository(Invitation)
      .update({ id: expired.id }, { expiresAt: new Date(Date.now() - 1000) });

    const cases = [
      [revoked.token, 410, 'This invitation was revoked'],
      [expired.token, 410, 'This invitation has expired'],
      ['A'.repeat(43), 404, 'This invitation link is not valid'],
      ['short', 404, 'This invitation link is not valid'],
    ] as const;
    for (const [token, status, title] of cases) {
      const page = await client().get(`/dashboard/invitations/${token}`);
      expect(page.status).toBe(status);
      expect(textOf(page.html)).toContain(title);
      const signUp = await client().post(
        `/dashboard/invitations/${token}/signup`,
        { password: TEST_PASSWORD, confirmPassword: TEST_PASSWORD },
        { from: '/dashboard/login' },
      );
      expect(signUp.status).toBe(status);
    }
    expect(await userRow(revokedEmail)).toBeNull();
    expect(await userRow(expiredEmail)).toBeNull();
    // The tokens never reach the log.
    expect(t.logs.join('\n')).not.toContain(revoked.token);
  });
});
