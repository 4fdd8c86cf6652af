// Two-step codes over HTTP, through the real dashboard: set up from the shown secret,
// the second step after the password (a half-signed-in session reaches nothing else),
// wrong codes counted like wrong passwords, a code refused when replayed, a recovery code
// used once, and turning them off only with the password and a code. The secret and the
// recovery codes are never stored, answered or logged in clear.
import { IsNull, Not } from 'typeorm';
import { RecoveryCode } from '../../../src/second-factors/recovery-code.entity.js';
import { UserTotp } from '../../../src/second-factors/user-totp.entity.js';
import { DashboardSession } from '../../../src/dashboard/session/dashboard-session.entity.js';
import {
  createAccount,
  TEST_PASSWORD,
  type TestAccount,
} from '../../factories/accounts.js';
import { DashboardClient, textOf } from '../../support/dashboard-client.js';
import {
  SECURITY,
  setUpTotp,
  totpCode,
  type TotpSetUp,
} from '../../support/second-factors.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

const SECOND_STEP = '/dashboard/sign-in/second-step';

describe('two-step codes (e2e)', () => {
  let t: TestApp;
  let owner: TestAccount;
  let totp: TotpSetUp;
  let ip = 0;

  /** A client from an address of its own, so the sign-in limits of one test stay its own. */
  function client(): DashboardClient {
    const c = new DashboardClient(t.url);
    c.headers['x-forwarded-for'] = `198.51.100.${++ip}`;
    return c;
  }
  async function halfSignedIn(): Promise<DashboardClient> {
    const c = client();
    const page = await c.logIn(owner.user.email);
    expect(page.status).toBe(303);
    expect(page.location).toBe(SECOND_STEP);
    return c;
  }
  const sessionsOf = (userId: string) =>
    t.dataSource.getRepository(DashboardSession).find({ where: { userId } });

  beforeAll(async () => {
    t = await createTestApp({ env: { TRUST_PROXY: '127.0.0.1' } });
    owner = await createAccount(t);
    const c = client();
    expect((await c.logIn(owner.user.email)).location).toBe('/dashboard/forms');
    totp = await setUpTotp(c);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('shows the secret with an SVG QR code, and the recovery codes once', async () => {
    expect(totp.setupHtml).toContain('<svg');
    expect(totp.secret).toMatch(/^[A-Z2-7]{32}$/);
    const stored = await t.dataSource.getRepository(UserTotp).findOne({
      select: { secretSealed: true, confirmedAt: true },
      where: { userId: owner.user.id },
    });
    expect(stored?.confirmedAt).not.toBeNull();
    expect(stored?.secretSealed).toMatch(/^v1\./);
  });

  it('asks for the second step after the password; half signed in reaches nothing else', async () => {
    const c = await halfSignedIn();
    for (const path of [
      '/dashboard/forms',
      '/dashboard/account',
      SECURITY,
      '/dashboard/account/sessions',
    ]) {
      const page = await c.get(path);
      expect(page.status, path).toBe(303);
      expect(page.location, path).toBe(SECOND_STEP);
    }
    const step = await c.get(SECOND_STEP);
    expect(step.status).toBe(200);
    expect(textOf(step.html)).toContain('Code from your authenticator app');
    // A post of a signed-in page with the half session's token is sent to the second step too.
    const posted = await c.post(
      '/dashboard/account/password',
      {
        currentPassword: TEST_PASSWORD,
        newPassword: 'another-pass-99',
        confirmPassword: 'another-pass-99',
      },
      { from: SECOND_STEP },
    );
    expect(posted.status).toBe(303);
    expect(posted.location).toBe(SECOND_STEP);
  });

  it('signs in with the next code, and refuses the same code again (replay)', async () => {
    const code = totpCode(totp.secret, Date.now() + 30_000);
    const first = await halfSignedIn();
    const accepted = await first.post(
      `${SECOND_STEP}/code`,
      { code },
      { from: SECOND_STEP },
    );
    expect(accepted.status).toBe(303);
    expect(accepted.location).toBe('/dashboard/forms');
    expect((await first.get('/dashboard/forms')).status).toBe(200);

    const second = await halfSignedIn();
    const replayed = await second.post(
      `${SECOND_STEP}/code`,
      { code },
      { from: SECOND_STEP },
    );
    expect(replayed.status).toBe(401);
    expect(textOf(replayed.html)).toContain('That code was used already');
    expect((await second.get('/dashboard/forms')).location).toBe(SECOND_STEP);

    const methods = (await sessionsOf(owner.user.id)).map((s) => s.method);
    expect(methods).toContain('password+totp');
  });

  it('counts wrong codes like wrong passwords: after a few the client must wait', async () => {
    const c = await halfSignedIn();
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const page = await c.post(
        `${SECOND_STEP}/code`,
        { code: '000000' },
        { from: SECOND_STEP },
      );
      statuses.push(page.status);
      if (page.status === 429) {
        expect(Number(page.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(textOf(page.html)).toContain('Too many attempts');
      }
    }
    expect(statuses).toEqual([401, 401, 401, 401, 429]);
    // The same limit holds for the password from this client.
    const again = new DashboardClient(t.url);
    again.headers = { ...c.headers };
    expect((await again.logIn(owner.user.email)).status).toBe(429);
  });

  it('takes a recovery code once', async () => {
    const [code] = totp.recoveryCodes;
    const first = await halfSignedIn();
    const used = await first.post(
      `${SECOND_STEP}/recovery`,
      { recoveryCode: code.toUpperCase() },
      { from: SECOND_STEP },
    );
    expect(used.status).toBe(303);
    expect((await first.get('/dashboard/forms')).status).toBe(200);

    const second = await halfSignedIn();
    const reused = await second.post(
      `${SECOND_STEP}/recovery`,
      { recoveryCode: code },
      { from: SECOND_STEP },
    );
    expect(reused.status).toBe(401);
    expect(textOf(reused.html)).toContain(
      'That recovery code is not right, or it was used already',
    );
    const left = await t.dataSource
      .getRepository(RecoveryCode)
      .countBy({ userId: owner.user.id, usedAt: Not(IsNull()) });
    expect(left).toBe(1);
    const security = await first.get(SECURITY);
    expect(textOf(security.html)).toContain('9 of 10 recovery codes left');
  });

  it('never stores, answers or logs the secret or a recovery code in clear', async () => {
    const rows = [
      ...(await t.dataSource.query('SELECT * FROM user_totp')),
      ...(await t.dataSource.query('SELECT * FROM recovery_code')),
      ...(await t.dataSource.query('SELECT * FROM dashboard_session')),
    ];
    const stored = JSON.stringify(rows).toLowerCase();
    const logs = t.logs.join('\n').toLowerCase();
    const c = client();
    await c.logIn(owner.user.email);
    const pages = [(await c.get(SECOND_STEP)).html].join('\n');
    for (const secret of [totp.secret, ...totp.recoveryCodes]) {
      const plain = secret.toLowerCase();
      expect(stored).not.toContain(plain);
      expect(stored).not.toContain(plain.replace(/-/g, ''));
      expect(logs).not.toContain(plain);
      expect(pages.toLowerCase()).not.toContain(plain);
    }
  });

  it('turns off only with the password and a code', async () => {
    const c = await halfSignedIn();
    const inside = await c.post(
      `${SECOND_STEP}/recovery`,
      { recoveryCode: totp.recoveryCodes[1] },
      { from: SECOND_STEP },
    );
    expect(inside.status).toBe(303);

    const noPassword = await c.post(
      `${SECURITY}/totp/disable`,
      { password: 'wrong-password-1', code: totp.recoveryCodes[2] },
      { from: SECURITY },
    );
    expect(noPassword.status).toBe(400);
    expect(textOf(noPassword.html)).toContain('Your password is not right');
    const noCode = await c.post(
      `${SECURITY}/totp/disable`,
      { password: TEST_PASSWORD, code: '123456' },
      { from: SECURITY },
    );
    expect(noCode.status).toBe(400);
    expect(textOf(noCode.html)).toContain('That code is not right');
    expect(
      await t.dataSource
        .getRepository(UserTotp)
        .countBy({ userId: owner.user.id }),
    ).toBe(1);

    const off = await c.post(
      `${SECURITY}/totp/disable`,
      { password: TEST_PASSWORD, code: totp.recoveryCodes[2] },
      { from: SECURITY },
    );
    expect(off.status).toBe(303);
    expect(off.location).toBe(`${SECURITY}?done=totp-off`);
    expect(
      await t.dataSource
        .getRepository(UserTotp)
        .countBy({ userId: owner.user.id }),
    ).toBe(0);
    expect(
      await t.dataSource
        .getRepository(RecoveryCode)
        .countBy({ userId: owner.user.id }),
    ).toBe(0);
    // The password alone signs in again.
    expect((await client().logIn(owner.user.email)).location).toBe(
      '/dashboard/forms',
    );
  });
});
