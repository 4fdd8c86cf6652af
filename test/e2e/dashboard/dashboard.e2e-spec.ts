// The dashboard's security properties over plain HTTP, on SQLite by default and on
// MySQL/MariaDB when TEST_DATABASE_URL is set: cookie flags, server-side sessions that
// logout and password changes revoke, CSRF, sign-in rate limits, sign-up switch. The
// pages themselves (escaping included) are in dashboard-pages.e2e-spec.ts.
import { createHash } from 'node:crypto';
import { createAccount, TEST_PASSWORD } from '../../factories/accounts.js';
import {
  csrfOf,
  DashboardClient,
  textOf,
  freshEmail,
  signedInClient,
} from '../../support/dashboard-client.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import {
  countRows,
  storedSessionTokenHashes,
} from '../../support/stored-rows.js';

function sessionCookieLine(setCookies: string[]): string {
  const line = setCookies.find((c) => c.startsWith('dashboard_session='));
  if (!line) throw new Error(`no session cookie in ${setCookies.join(' | ')}`);
  return line;
}

describe('dashboard (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    // Loopback is a trusted proxy here, so tests can speak for other client IPs and HTTPS.
    t = await createTestApp({ env: { TRUST_PROXY: '127.0.0.1' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  const signedIn = (ip?: string, email?: string) =>
    signedInClient(t.url, ip, email);

  describe('sessions', () => {
    it('sets an HttpOnly, SameSite=Lax session cookie scoped to /dashboard, without Secure over HTTP', async () => {
      const client = new DashboardClient(t.url);
      const page = await client.signUp(freshEmail());
      expect(page.status).toBe(303);
      expect(page.location).toBe('/dashboard/forms?done=welcome');
      const line = sessionCookieLine(page.setCookies);
      expect(line).toMatch(/; HttpOnly/);
      expect(line).toMatch(/; SameSite=Lax/);
      expect(line).toMatch(/; Path=\/dashboard(;|$)/);
      expect(line).not.toMatch(/Secure/i);
    });

    it('marks the cookie Secure when the request came over HTTPS through a trusted proxy', async () => {
      const client = new DashboardClient(t.url);
      client.headers['x-forwarded-proto'] = 'https';
      const page = await client.signUp(freshEmail());
      expect(page.status).toBe(303);
      expect(sessionCookieLine(page.setCookies)).toMatch(/; Secure/);
      // So is the signed-out CSRF cookie of the log-in page.
      const visitor = new DashboardClient(t.url);
      visitor.headers['x-forwarded-proto'] = 'https';
      const login = await visitor.get('/dashboard/login');
      expect(login.setCookies.join()).toMatch(
        /dashboard_csrf=[^;]+; Path=\/dashboard; HttpOnly; Secure; SameSite=Lax/,
      );
    });

    it('stores only the SHA-256 of a 256-bit random token', async () => {
      const client = await signedIn();
      const token = client.cookies.get('dashboard_session')!;
      expect(Buffer.from(token, 'base64url').length).toBeGreaterThanOrEqual(32);
      const hash = createHash('sha256').update(token).digest('hex');
      const hashes = await storedSessionTokenHashes(t);
      expect(hashes).toContain(hash);
      expect(JSON.stringify(hashes)).not.toContain(token);
    });

    it('sends signed-out visitors of a dashboard page to log in, with HTML not JSON', async () => {
      const res = await new DashboardClient(t.url).get('/dashboard/account');
      expect(res.status).toBe(303);
      expect(res.location).toBe('/dashboard/login?next=%2Fdashboard%2Faccount');
      const bogus = new DashboardClient(t.url);
      bogus.cookies.set('dashboard_session', 'not-a-real-token');
      expect((await bogus.get('/dashboard/forms')).location).toBe(
        '/dashboard/login',
      );
    });

    it('logs out by deleting the session: a copied cookie stops working', async () => {
      const client = await signedIn();
      const copy = new DashboardClient(t.url);
      copy.cookies.set(
        'dashboard_session',
        client.cookies.get('dashboard_session')!,
      );
      expect((await copy.get('/dashboard/forms')).status).toBe(200);

      const out = await client.post(
        '/dashboard/logout',
        {},
        { from: '/dashboard/forms' },
      );
      expect(out.status).toBe(303);
      expect(out.location).toBe('/dashboard/login?done=signed-out');
      expect(out.setCookies.join()).toMatch(/dashboard_session=;/);

      const after = await copy.get('/dashboard/forms');
      expect(after.status).toBe(303);
      expect(after.location).toBe('/dashboard/login');
    });

    it('ends every other session of the account when the password changes', async () => {
      const email = freshEmail();
      const first = new DashboardClient(t.url);
      first.headers['x-forwarded-for'] = '203.0.113.9';
      await first.signUp(email);
      const second = new DashboardClient(t.url);
      second.headers['x-forwarded-for'] = '203.0.113.9';
      expect((await second.logIn(email)).status).toBe(303);
      const oldToken = first.cookies.get('dashboard_session')!;

      const changed = await first.post(
        '/dashboard/account/password',
        {
          currentPassword: TEST_PASSWORD,
          newPassword: 'a-new-secret-2024',
          confirmPassword: 'a-new-secret-2024',
        },
        { from: '/dashboard/account' },
      );
      expect(changed.status).toBe(303);
      expect(changed.location).toBe('/dashboard/account?done=password-changed');
      expect(first.cookies.get('dashboard_session')).not.toBe(oldToken);
      expect((await first.get('/dashboard/account')).status).toBe(200);
      expect((await second.get('/dashboard/account')).status).toBe(303);
      const stale = new DashboardClient(t.url);
      stale.cookies.set('dashboard_session', oldToken);
      expect((await stale.get('/dashboard/account')).status).toBe(303);

      const relogin = new DashboardClient(t.url);
      expect((await relogin.logIn(email, 'a-new-secret-2024')).status).toBe(
        303,
      );
    });

    it('refuses a password change with a wrong current password, beside the field', async () => {
      const client = await signedIn();
      const res = await client.post(
        '/dashboard/account/password',
        {
          currentPassword: 'not-my-password-1',
          newPassword: 'a-new-secret-2024',
          confirmPassword: 'a-new-secret-2024',
        },
        { from: '/dashboard/account' },
      );
      expect(res.status).toBe(400);
      expect(res.html).toContain('Your current password is not right');
      expect(res.html).toMatch(/id="currentPassword"[^>]*aria-invalid="true"/);
    });
  });

  describe('CSRF', () => {
    it('refuses a state-changing post without the token with a 403 page, changing nothing', async () => {
      const client = await signedIn();
      const res = await client.post(
        '/dashboard/forms/new',
        { name: 'Forged', 'f0.id': 'email', 'f0.type': 'email' },
        { csrf: null },
      );
      expect(res.status).toBe(403);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.html).toContain('<h1>Request refused</h1>');
      const list = await client.get('/dashboard/forms');
      expect(list.html).not.toContain('Forged');
    });

    it("refuses another session's token", async () => {
      const victim = await signedIn();
      const attacker = await signedIn();
      const attackerToken = csrfOf(
        (await attacker.get('/dashboard/forms')).html,
      );
      const res = await victim.post(
        '/dashboard/logout',
        {},
        { csrf: attackerToken },
      );
      expect(res.status).toBe(403);
      expect((await victim.get('/dashboard/forms')).status).toBe(200);
    });

    it('protects the log-in form with a double-submit token', async () => {
      const { user } = await createAccount(t, freshEmail());
      const client = new DashboardClient(t.url);
      const token = csrfOf((await client.get('/dashboard/login')).html);
      // Without the cookie the token belongs to (a cross-site post), it is refused.
      const forged = await fetch(`${t.url}/dashboard/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          email: user.email,
          password: TEST_PASSWORD,
          _csrf: token,
        }).toString(),
        redirect: 'manual',
      });
      expect(forged.status).toBe(403);
      expect(forged.headers.getSetCookie().join()).not.toContain(
        'dashboard_session',
      );
      expect((await client.logIn(user.email)).status).toBe(303);
    });
  });

  describe('sign-in rate limit', () => {
    async function failLogin(client: DashboardClient, email: string) {
      return client.post('/dashboard/login', {
        email,
        password: 'wrong-password-1',
      });
    }

    it('answers the 11th rapid failed login from one IP with 429 and a page saying to wait', async () => {
      const client = new DashboardClient(t.url);
      client.headers['x-forwarded-for'] = '198.51.100.7';
      for (let i = 1; i <= 10; i++) {
        expect((await failLogin(client, `nobody${i}@example.com`)).status).toBe(
          401,
        );
      }
      const blocked = await failLogin(client, 'nobody11@example.com');
      expect(blocked.status).toBe(429);
      expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(textOf(blocked.html)).toMatch(
        /Too many attempts\. Please wait 15 minutes/,
      );
      // Another IP is not affected.
      const other = new DashboardClient(t.url);
      other.headers['x-forwarded-for'] = '198.51.100.8';
      expect((await failLogin(other, 'nobody1@example.com')).status).toBe(401);
    });

    it('never locks an owner out because strangers failed to log in as them', async () => {
      const { user } = await createAccount(t, freshEmail());
      for (let i = 1; i <= 10; i++) {
        const client = new DashboardClient(t.url);
        client.headers['x-forwarded-for'] = `192.0.2.${i}`;
        expect((await failLogin(client, user.email)).status).toBe(401);
      }
      const owner = new DashboardClient(t.url);
      owner.headers['x-forwarded-for'] = '192.0.2.200';
      const res = await owner.logIn(user.email);
      expect(res.status).toBe(303);
      expect(owner.cookies.has('dashboard_session')).toBe(true);
    });

    it('limits sign-up attempts per IP', async () => {
      const client = new DashboardClient(t.url);
      client.headers['x-forwarded-for'] = '198.51.100.50';
      for (let i = 1; i <= 10; i++) {
        const res = await client.post('/dashboard/signup', {
          email: `bad-${i}`,
          password: 'x',
          confirmPassword: 'x',
        });
        expect(res.status).toBe(400);
      }
      const blocked = await client.signUp(freshEmail());
      expect(blocked.status).toBe(429);
    });
  });
});

describe('dashboard with sign-up turned off (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { SIGNUP_ENABLED: 'false' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('says so on the sign-up page and refuses the post with 403', async () => {
    const client = new DashboardClient(t.url);
    const page = await client.get('/dashboard/signup');
    expect(page.status).toBe(200);
    expect(page.html).toContain('<h1>Sign-up is turned off</h1>');
    expect(page.html).not.toContain('name="password"');
    const login = await client.get('/dashboard/login');
    expect(login.html).not.toContain('Create an account');

    const res = await client.post(
      '/dashboard/signup',
      {
        email: 'new@example.com',
        password: TEST_PASSWORD,
        confirmPassword: TEST_PASSWORD,
      },
      { from: '/dashboard/login' },
    );
    expect(res.status).toBe(403);
    expect(res.setCookies.join()).not.toContain('dashboard_session');
    expect(await countRows(t, 'account')).toBe(0);
  });

  it('still lets existing owners log in', async () => {
    const { user } = await createAccount(t, 'existing@example.com');
    const client = new DashboardClient(t.url);
    expect((await client.logIn(user.email)).status).toBe(303);
    expect((await client.get('/dashboard/forms')).status).toBe(200);
  });
});
