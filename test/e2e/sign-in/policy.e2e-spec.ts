// The account's policy "members must use a second factor": only owners and admins change
// it; a member without a factor is sent to set one up after signing in and reaches nothing
// of the account until then; with one, or after SSO, they reach it. The members API says
// who has a factor.
import { AccountSecurityPolicy } from '../../../src/second-factors/account-security-policy.entity.js';
import { DashboardSessionsService } from '../../../src/dashboard/session/dashboard-sessions.service.js';
import {
  createAccount,
  createMember,
  type TestAccount,
} from '../../factories/accounts.js';
import { DashboardClient, textOf } from '../../support/dashboard-client.js';
import { request } from '../../support/http.js';
import { SECURITY, setUpTotp, totpCode } from '../../support/second-factors.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

const SETUP = `${SECURITY}?required=1`;

describe('the second-factor policy (e2e)', () => {
  let t: TestApp;
  let acme: TestAccount;
  let ip = 0;

  async function signedIn(email: string): Promise<DashboardClient> {
    const c = new DashboardClient(t.url);
    c.headers['x-forwarded-for'] = `203.0.113.${++ip}`;
    const page = await c.logIn(email);
    expect(page.status).toBe(303);
    return c;
  }
  const policyOf = async (accountId: string) =>
    (
      await t.dataSource
        .getRepository(AccountSecurityPolicy)
        .findOneBy({ accountId })
    )?.requireSecondFactor ?? false;
  const setPolicy = (c: DashboardClient, on: boolean) =>
    c.post(`${SECURITY}/policy`, on ? { requireSecondFactor: '1' } : {}, {
      from: SECURITY,
    });

  beforeAll(async () => {
    t = await createTestApp({ env: { TRUST_PROXY: '127.0.0.1' } });
    acme = await createAccount(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is changed by owners and admins only', async () => {
    for (const role of ['viewer', 'editor', 'developer'] as const) {
      const member = await createMember(t, acme.account.id, role);
      const c = await signedIn(member.email);
      const page = await c.get(SECURITY);
      expect(textOf(page.html)).toContain('Owners and admins set this.');
      expect(page.html).not.toContain('name="requireSecondFactor"');
      const refused = await setPolicy(c, true);
      expect(refused.status, role).toBe(403);
      expect(textOf(refused.html)).toContain('manage security settings');
      expect(await policyOf(acme.account.id)).toBe(false);
    }
    const admin = await createMember(t, acme.account.id, 'admin');
    const adminClient = await signedIn(admin.email);
    expect((await setPolicy(adminClient, true)).status).toBe(303);
    expect(await policyOf(acme.account.id)).toBe(true);
    // Now the admin, without a factor, is sent to set one up before anything else.
    const locked = await setPolicy(adminClient, false);
    expect(locked.location).toBe(SETUP);
    expect(await policyOf(acme.account.id)).toBe(true);
    const owner = await signedIn(acme.user.email);
    await setUpTotp(owner);
    expect((await setPolicy(owner, false)).status).toBe(303);
    expect(await policyOf(acme.account.id)).toBe(false);
  });

  it('sends a member without a factor to set one up, and lets them in once they have', async () => {
    const account = await createAccount(t);
    const owner = await signedIn(account.user.email);
    // The owner turns the policy on while having no factor: they are sent to set one up too.
    expect((await setPolicy(owner, true)).status).toBe(303);
    expect((await owner.get('/dashboard/forms')).location).toBe(SETUP);

    const member = await createMember(t, account.account.id, 'editor');
    const c = await signedIn(member.email);
    for (const path of [
      '/dashboard/forms',
      '/dashboard/members',
      '/dashboard/account',
    ]) {
      const page = await c.get(path);
      expect(page.status, path).toBe(303);
      expect(page.location, path).toBe(SETUP);
    }
    const posted = await c.post(
      '/dashboard/members/leave',
      {},
      { from: SECURITY },
    );
    expect(posted.location).toBe(SETUP);
    const security = await c.get(SETUP);
    expect(security.status).toBe(200);
    expect(textOf(security.html)).toContain(
      'This account requires a second factor.',
    );
    // Their sessions page stays open to them.
    expect((await c.get('/dashboard/account/sessions')).status).toBe(200);

    const { secret } = await setUpTotp(c);
    expect((await c.get('/dashboard/forms')).status).toBe(200);
    // Next time the second step comes first, then the account.
    const again = await signedIn(member.email);
    expect((await again.get('/dashboard/forms')).location).toBe(
      '/dashboard/sign-in/second-step',
    );
    const step = await again.post(
      '/dashboard/sign-in/second-step/code',
      { code: totpCode(secret, Date.now() + 30_000) },
      { from: '/dashboard/sign-in/second-step' },
    );
    expect(step.status).toBe(303);
    expect((await again.get('/dashboard/forms')).status).toBe(200);
  });

  it('counts a single sign-on session as meeting the policy', async () => {
    const account = await createAccount(t);
    const owner = await signedIn(account.user.email);
    expect((await setPolicy(owner, true)).status).toBe(303);
    const member = await createMember(t, account.account.id, 'viewer');
    const { token } = await t.app
      .get(DashboardSessionsService)
      .start(member.id, account.account.id, 'sso');
    const c = new DashboardClient(t.url);
    c.cookies.set('dashboard_session', token);
    expect((await c.get('/dashboard/forms')).status).toBe(200);
  });

  it('shows twoFactor in the members API: true with TOTP, false without', async () => {
    const account = await createAccount(t);
    const withTotp = await createMember(t, account.account.id, 'developer');
    const without = await createMember(t, account.account.id, 'viewer');
    await setUpTotp(await signedIn(withTotp.email));
    const listed = await request(`${t.url}/api/v1/account/members`, {
      apiKey: account.apiKey,
    });
    expect(listed.status).toBe(200);
    const byId = new Map(
      (listed.body.data as { userId: string; twoFactor: boolean }[]).map(
        (m) => [m.userId, m.twoFactor],
      ),
    );
    expect(byId.get(withTotp.id)).toBe(true);
    expect(byId.get(without.id)).toBe(false);
    expect(byId.get(account.user.id)).toBe(false);
  });
});
