// An account's own address is verified by a link mailed at sign-up (through the real
// dashboard and a real SMTP server on loopback): until then the owner is mailed no alert
// and every page says so, with a CSRF-protected, rate-limited button to send the link
// again; the links count against the per-address cap, so sign-ups and resends naming a
// stranger mail them at most 3 times a day.
import { createHash } from 'node:crypto';
import { User } from '../../../src/accounts/user.entity.js';
import { AccountVerificationService } from '../../../src/notifications/email/account-verification.service.js';
import { EmailRecipientsService } from '../../../src/notifications/email/email-recipients.service.js';
import { MailQuota } from '../../../src/notifications/email/mail-quota.entity.js';
import { VERIFICATION_SUBJECT } from '../../../src/notifications/email/verification-mail.js';
import {
  OWNER_ALERTS,
  type OwnerAlerts,
} from '../../../src/notifications/notification-channel.js';
import { createAccount } from '../../factories/accounts.js';
import {
  DashboardClient,
  csrfOf,
  freshEmail,
  textOf,
} from '../../support/dashboard-client.js';
import { request } from '../../support/http.js';
import { TestSmtpServer } from '../../support/smtp-server.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

const PUBLIC_URL = 'https://forms.example.test';
const LINK =
  /https:\/\/forms\.example\.test\/dashboard\/verify-email\/([A-Za-z0-9_-]{43})/;
const BANNER = 'Your email address is not verified.';
const ALERT = {
  type: 'webhook-failing' as const,
  formId: 'form-1',
  webhookId: 'hook-1',
  since: new Date('2026-01-01T00:00:00.000Z'),
};
const sha256 = (value: string) =>
  createHash('sha256').update(value).digest('hex');

describe('account email verification (e2e)', () => {
  let smtp: TestSmtpServer;
  let t: TestApp;
  let ip = 0;

  beforeAll(async () => {
    smtp = await TestSmtpServer.start();
    t = await createTestApp({
      env: {
        SMTP_URL: smtp.url,
        MAIL_FROM: 'forms@example.com',
        PUBLIC_URL,
        TRUST_PROXY: '127.0.0.1',
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const settled = async () => {
    await t.app.get(AccountVerificationService).settled();
    await t.app.get(EmailRecipientsService).settled();
  };
  const accountRow = (email: string) =>
    t.dataSource.getRepository(User).findOneOrFail({
      where: { email },
      select: {
        id: true,
        email: true,
        emailVerifiedAt: true,
        verifyTokenHash: true,
        verifySentAt: true,
      },
    });
  /** A client from an address of its own, so the per-client sign-up limit stays out of the way. */
  function client(): DashboardClient {
    const c = new DashboardClient(t.url);
    c.headers['x-forwarded-for'] = `203.0.113.${++ip}`;
    return c;
  }
  function tokenOf(mail: { parsed: { text?: string } }): string {
    const match = LINK.exec(mail.parsed.text ?? '');
    expect(match, 'the message carries the verification link').not.toBeNull();
    return match![1];
  }
  /** Lets the next resend past the one-a-minute limit. */
  const aMinuteLater = (email: string) =>
    t.dataSource
      .getRepository(User)
      .update({ email }, { verifySentAt: new Date(Date.now() - 61_000) });

  it('mails a link at sign-up; the pages say the address is unverified until Verify is selected', async () => {
    const email = freshEmail('signup');
    const owner = client();
    const signedUp = await owner.signUp(email);
    expect(signedUp.status).toBe(303);
    await settled();

    const [mail, ...others] = smtp.to(email);
    expect(others).toEqual([]);
    expect(mail.parsed.subject).toBe(VERIFICATION_SUBJECT);
    expect(mail.envelope).toEqual({ from: 'forms@example.com', to: [email] });
    const token = tokenOf(mail);
    expect(mail.parsed.html).toContain(
      `${PUBLIC_URL}/dashboard/verify-email/${token}`,
    );
    const row = await accountRow(email);
    expect(row.emailVerifiedAt).toBeNull();
    // Only the token's hash is stored.
    expect(row.verifyTokenHash).toBe(sha256(token));

    const forms = await owner.get('/dashboard/forms');
    expect(forms.status).toBe(200);
    expect(textOf(forms.html)).toContain(BANNER);
    expect(forms.html).toContain(
      '<form method="post" action="/dashboard/account/verify-email"',
    );

    // No alert reaches an unverified owner; the log says why.
    await t.app.get<OwnerAlerts>(OWNER_ALERTS).alert(row.id, ALERT);
    await settled();
    expect(smtp.to(email)).toHaveLength(1);
    expect(t.logs.join('\n')).toContain(
      `The address of account ${row.id} is not verified, so it is not mailed`,
    );

    // Opening the link (what a mail scanner does) verifies nothing.
    const anonymous = client();
    const page = await anonymous.get(`/dashboard/verify-email/${token}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.html).toContain(
      `<form method="post" action="/dashboard/verify-email/${token}"`,
    );
    expect((await accountRow(email)).emailVerifiedAt).toBeNull();

    const done = await anonymous.send(
      'POST',
      `/dashboard/verify-email/${token}`,
      '',
    );
    expect(done.status).toBe(200);
    expect(textOf(done.html)).toContain('Email address verified');
    expect((await accountRow(email)).emailVerifiedAt).toBeInstanceOf(Date);
    const again = await anonymous.get(`/dashboard/verify-email/${token}`);
    expect(textOf(again.html)).toContain('already verified');

    expect(textOf((await owner.get('/dashboard/forms')).html)).not.toContain(
      BANNER,
    );
    await t.app.get<OwnerAlerts>(OWNER_ALERTS).alert(row.id, ALERT);
    expect(smtp.to(email)).toHaveLength(2);
    // The token never reaches the log.
    expect(t.logs.join('\n')).not.toContain(token);
  });

  it('answers 404 to unknown links and 410 to expired ones, verifying nothing', async () => {
    const email = freshEmail('late');
    expect((await client().signUp(email)).status).toBe(303);
    await settled();
    const token = tokenOf(smtp.to(email)[0]);
    await t.dataSource
      .getRepository(User)
      .update({ email }, { verifyTokenExpiresAt: new Date(Date.now() - 1000) });
    for (const method of ['GET', 'POST']) {
      const expired = await client().send(
        method,
        `/dashboard/verify-email/${token}`,
        method === 'POST' ? '' : undefined,
      );
      expect(expired.status).toBe(410);
      expect(textOf(expired.html)).toContain(
        'This verification link has expired',
      );
      const unknown = await client().send(
        method,
        `/dashboard/verify-email/${'A'.repeat(43)}`,
        method === 'POST' ? '' : undefined,
      );
      expect(unknown.status).toBe(404);
      expect(textOf(unknown.html)).toContain(
        'This verification link is not valid',
      );
    }
    expect((await accountRow(email)).emailVerifiedAt).toBeNull();
  });

  it('sends the link again from the banner: CSRF-protected, once a minute, and within the address cap', async () => {
    const email = freshEmail('resend');
    const owner = client();
    expect((await owner.signUp(email)).status).toBe(303);
    await settled();
    const first = tokenOf(smtp.to(email)[0]);

    const forged = await owner.post(
      '/dashboard/account/verify-email',
      {},
      { csrf: 'forged' },
    );
    expect(forged.status).toBe(403);
    const csrf = csrfOf((await owner.get('/dashboard/forms')).html);
    const tooSoon = await owner.post(
      '/dashboard/account/verify-email',
      {},
      { csrf },
    );
    expect(tooSoon.status).toBe(429);
    expect(Number(tooSoon.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(tooSoon.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(textOf(tooSoon.html)).toContain('A link was sent a moment ago');
    await settled();
    expect(smtp.to(email)).toHaveLength(1);

    await aMinuteLater(email);
    const resent = await owner.post(
      '/dashboard/account/verify-email',
      {},
      { csrf },
    );
    expect(resent.status).toBe(303);
    expect(resent.location).toBe('/dashboard/account?done=verification-sent');
    const notice = await owner.get(resent.location!);
    expect(textOf(notice.html)).toContain(
      'A new verification link is on its way',
    );
    await settled();
    expect(smtp.to(email)).toHaveLength(2);
    const second = tokenOf(smtp.to(email)[1]);
    expect(second).not.toBe(first);
    expect((await accountRow(email)).verifyTokenHash).toBe(sha256(second));

    await aMinuteLater(email);
    expect(
      (await owner.post('/dashboard/account/verify-email', {}, { csrf }))
        .status,
    ).toBe(303);
    await settled();
    expect(smtp.to(email)).toHaveLength(3);
    const third = tokenOf(smtp.to(email)[2]);

    // The address had its 3 mails of the day: a fourth is refused, the last link still works.
    await aMinuteLater(email);
    const capped = await owner.post(
      '/dashboard/account/verify-email',
      {},
      { csrf },
    );
    expect(capped.status).toBe(429);
    expect(Number(capped.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(textOf(capped.html)).toContain(
      'Your address was sent as many links as it may receive for now',
    );
    await settled();
    expect(smtp.to(email)).toHaveLength(3);
    expect((await accountRow(email)).verifyTokenHash).toBe(sha256(third));
    const done = await client().send(
      'POST',
      `/dashboard/verify-email/${third}`,
      '',
    );
    expect(done.status).toBe(200);
    expect(
      await t.dataSource
        .getRepository(MailQuota)
        .findOneByOrFail({ subject: `address:${email}` }),
    ).toMatchObject({ usedOnDay: 3, unanswered: 0 });
    expect(
      (await owner.post('/dashboard/account/verify-email', {}, { csrf }))
        .location,
    ).toBe('/dashboard/account?done=verification-verified');
  });

  it('mails a stranger named by 3 sign-ups and other accounts at most 3 times a day', async () => {
    const stranger = freshEmail('stranger');
    const signUps = await Promise.all(
      [stranger, stranger.toUpperCase(), ` ${stranger} `].map((email) =>
        client().signUp(email),
      ),
    );
    expect(signUps.map((page) => page.status).sort((a, b) => a - b)).toEqual([
      303, 409, 409,
    ]);
    // Two other accounts list the stranger for their forms' notifications.
    for (let i = 0; i < 3; i++) {
      const other = await createAccount(t);
      const res = await request(`${t.url}/api/v1/forms`, {
        apiKey: other.apiKey,
        json: { name: 'Click here', notifyEmails: [stranger] },
      });
      expect(res.status).toBe(201);
    }
    await settled();
    const mails = smtp.to(stranger);
    expect(mails).toHaveLength(3);
    expect(
      mails
        .map((mail) => mail.parsed.subject ?? '')
        .sort((a, b) => a.localeCompare(b)),
    ).toEqual(
      [
        'Confirm to receive form notifications',
        'Confirm to receive form notifications',
        VERIFICATION_SUBJECT,
      ].sort(),
    );
    for (const mail of mails) expect(mail.raw).not.toContain('Click here');
  });
});
