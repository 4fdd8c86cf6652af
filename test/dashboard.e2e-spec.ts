// The dashboard's security properties over plain HTTP, on SQLite by default and on
// MySQL/MariaDB when TEST_DATABASE_URL is set: cookie flags, server-side sessions that
// logout and password changes revoke, CSRF, sign-in rate limits, escaping, sign-up switch.
import { createHash } from 'node:crypto';
import { AccountsService } from '../src/accounts/accounts.service.js';
import { Submission } from '../src/submissions/submission.entity.js';
import { createAccount, TEST_PASSWORD } from './factories/accounts.js';
import { createForm } from './factories/forms.js';
import { csrfOf, DashboardClient, textOf } from './support/dashboard-client.js';
import { request } from './support/http.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { countRows, storedSessionTokenHashes } from './support/stored-rows.js';

const XSS = '<img src=x onerror="window.__xss=1">';
const ESCAPED_XSS = '&lt;img src=x onerror=&quot;window.__xss=1&quot;&gt;';

function sessionCookieLine(setCookies: string[]): string {
  const line = setCookies.find((c) => c.startsWith('dashboard_session='));
  if (!line) throw new Error(`no session cookie in ${setCookies.join(' | ')}`);
  return line;
}

let emailCounter = 0;
const freshEmail = () => `owner${++emailCounter}-${Date.now()}@example.com`;

describe('dashboard (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    // Loopback is a trusted proxy here, so tests can speak for other client IPs and HTTPS.
    t = await createTestApp({ env: { TRUST_PROXY: '127.0.0.1' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A signed-in client of a brand-new account (signed up through the dashboard). */
  async function signedIn(
    ip = '203.0.113.1',
    email = freshEmail(),
  ): Promise<DashboardClient> {
    const client = new DashboardClient(t.url);
    client.headers['x-forwarded-for'] = ip;
    const page = await client.signUp(email);
    expect(page.status).toBe(303);
    return client;
  }

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
      const { account } = await createAccount(t, freshEmail());
      const client = new DashboardClient(t.url);
      const token = csrfOf((await client.get('/dashboard/login')).html);
      // Without the cookie the token belongs to (a cross-site post), it is refused.
      const forged = await fetch(`${t.url}/dashboard/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          email: account.email,
          password: TEST_PASSWORD,
          _csrf: token,
        }).toString(),
        redirect: 'manual',
      });
      expect(forged.status).toBe(403);
      expect(forged.headers.getSetCookie().join()).not.toContain(
        'dashboard_session',
      );
      expect((await client.logIn(account.email)).status).toBe(303);
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
      const { account } = await createAccount(t, freshEmail());
      for (let i = 1; i <= 10; i++) {
        const client = new DashboardClient(t.url);
        client.headers['x-forwarded-for'] = `192.0.2.${i}`;
        expect((await failLogin(client, account.email)).status).toBe(401);
      }
      const owner = new DashboardClient(t.url);
      owner.headers['x-forwarded-for'] = '192.0.2.200';
      const res = await owner.logIn(account.email);
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

  describe('pages', () => {
    it('explains a duplicate email at sign-up beside the field', async () => {
      const { account } = await createAccount(t, freshEmail());
      const client = new DashboardClient(t.url);
      client.headers['x-forwarded-for'] = '203.0.113.77';
      const res = await client.signUp(account.email.toUpperCase());
      expect(res.status).toBe(409);
      expect(res.html).toContain('An account with this email already exists');
      expect(res.html).toMatch(/role="alert"/);
      expect(res.html).toMatch(/id="email"[^>]*aria-invalid="true"/);
    });

    it('escapes submission values, field names and form names in the HTML', async () => {
      const email = freshEmail();
      const client = await signedIn('203.0.113.20', email);
      const owner = await t.app.get(AccountsService).findByEmail(email);
      const { form } = await createForm(t, owner!.id, {
        name: '<b>Bold</b> form',
        fields: [],
      });
      const sent = await request(`${t.url}/api/submit/${form.id}`, {
        json: { message: XSS, '<i>key</i>': 'v' },
      });
      expect(sent.status).toBe(200);

      const detail = await client.get(`/dashboard/forms/${form.id}`);
      expect(detail.status).toBe(200);
      expect(detail.html).not.toContain('<img src=x');
      expect(detail.html).not.toContain('<i>key</i>');
      expect(detail.html).not.toContain('<b>Bold</b>');
      expect(detail.html).toContain(ESCAPED_XSS);
      expect(detail.html).toContain('&lt;i&gt;key&lt;/i&gt;');
      expect(detail.html).toContain('&lt;b&gt;Bold&lt;/b&gt; form');
      const list = await client.get('/dashboard/forms');
      expect(list.html).toContain('&lt;b&gt;Bold&lt;/b&gt; form');
      expect(list.html).not.toContain('<b>Bold</b>');
    });

    it("answers another account's form with a 404 page, never its content", async () => {
      const owner = await createAccount(t, freshEmail());
      const { form } = await createForm(t, owner.account.id, {
        name: 'Private',
      });
      const stranger = await signedIn('203.0.113.21');
      for (const path of ['', '/settings', '/submissions.csv', '/delete']) {
        const res = await stranger.get(`/dashboard/forms/${form.id}${path}`);
        expect(res.status).toBe(404);
        expect(res.html).not.toContain('Private');
      }
      const del = await stranger.post(
        `/dashboard/forms/${form.id}/delete`,
        { confirmName: 'Private' },
        { from: '/dashboard/forms' },
      );
      expect(del.status).toBe(404);
      const still = await request(`${t.url}/api/v1/forms/${form.id}`, {
        apiKey: owner.apiKey,
      });
      expect(still.status).toBe(200);
    });

    it('pages through submissions newest first with a cursor link', async () => {
      const email = freshEmail();
      const client = await signedIn('203.0.113.25', email);
      const owner = await t.app.get(AccountsService).findByEmail(email);
      const { form } = await createForm(t, owner!.id, {
        name: 'Busy',
        fields: [{ id: 'n', type: 'number' }],
      });
      const start = Date.UTC(2025, 0, 1);
      await t.dataSource.getRepository(Submission).insert(
        Array.from({ length: 30 }, (_, i) => ({
          id: `01JTEST${String(i).padStart(19, '0')}`,
          formId: form.id,
          data: { n: i + 1 },
          ip: null,
          userAgent: null,
          origin: null,
          createdAt: new Date(start + i * 60_000),
        })),
      );
      const cells = (html: string) =>
        [...html.matchAll(/<div class="cell-value">(\d+)<\/div>/g)].map((m) =>
          Number(m[1]),
        );

      const first = await client.get(`/dashboard/forms/${form.id}`);
      expect(textOf(first.html)).toContain('30 submissions in total');
      expect(cells(first.html)).toEqual(
        Array.from({ length: 25 }, (_, i) => 30 - i),
      );
      const next = /href="([^"]+\?cursor=[^"]+)">Older submissions/.exec(
        first.html,
      );
      expect(next).not.toBeNull();

      const second = await client.get(next![1].replace(/&amp;/g, '&'));
      expect(second.status).toBe(200);
      expect(cells(second.html)).toEqual([5, 4, 3, 2, 1]);
      expect(second.html).not.toContain('Older submissions');
      expect(second.html).toContain('← Newest');

      const bad = await client.get(
        `/dashboard/forms/${form.id}?cursor=garbage`,
      );
      expect(bad.status).toBe(400);
      expect(bad.headers.get('content-type')).toMatch(/^text\/html/);
    });

    it('sends security headers: a strict CSP on the dashboard, a relaxed one on /docs only, no CORS', async () => {
      const client = await signedIn('203.0.113.22');
      const page = await client.send('GET', '/dashboard/forms');
      const csp = page.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("style-src 'self'");
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).toContain("frame-ancestors 'none'");
      expect(page.headers.get('x-content-type-options')).toBe('nosniff');
      expect(page.headers.get('cache-control')).toBe('no-store');
      const cors = await fetch(`${t.url}/dashboard/login`, {
        headers: { origin: 'https://evil.example' },
      });
      expect(cors.headers.get('access-control-allow-origin')).toBeNull();
      const docs = await fetch(`${t.url}/docs`);
      expect(docs.status).toBe(200);
      expect(docs.headers.get('content-security-policy')).toContain(
        "style-src 'self' 'unsafe-inline'",
      );
    });

    it('answers an unknown dashboard address with an HTML 404 page', async () => {
      const res = await new DashboardClient(t.url).get(
        '/dashboard/no/such/page',
      );
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.html).toContain('<h1>Page not found</h1>');
      const asset = await fetch(`${t.url}/dashboard/assets/missing.css`);
      expect(asset.status).toBe(404);
    });

    it('serves the stylesheet and script from /dashboard/assets/', async () => {
      const css = await fetch(`${t.url}/dashboard/assets/dashboard.css`);
      expect(css.status).toBe(200);
      expect(css.headers.get('content-type')).toMatch(/^text\/css/);
      const js = await fetch(`${t.url}/dashboard/assets/dashboard.js`);
      expect(js.status).toBe(200);
      expect(js.headers.get('content-type')).toMatch(/javascript/);
    });

    it('re-renders the new-form page with one more row for "Add field", keeping what was typed', async () => {
      const client = await signedIn('203.0.113.23');
      const res = await client.post(
        '/dashboard/forms/new',
        {
          name: 'Draft',
          'f0.id': 'email',
          'f0.type': 'email',
          'f0.required': 'on',
          op: 'add',
        },
        { from: '/dashboard/forms/new' },
      );
      expect(res.status).toBe(200);
      expect(res.html).toContain('<legend>Field 2</legend>');
      expect(res.html).toMatch(/name="f0.id" type="text" value="email"/);
      expect(res.html).toMatch(/name="f0.required" value="on" checked/);
      expect(res.html).toMatch(/name="name" type="text" value="Draft"/);
      const forms = await client.get('/dashboard/forms');
      expect(forms.html).not.toContain('Draft');
    });

    it('shows the API validation messages beside the offending field', async () => {
      const client = await signedIn('203.0.113.24');
      const dupes = await client.post(
        '/dashboard/forms/new',
        {
          name: 'Dupes',
          'f0.id': 'email',
          'f0.type': 'email',
          'f1.id': 'email',
          'f1.type': 'text',
        },
        { from: '/dashboard/forms/new' },
      );
      expect(dupes.status).toBe(400);
      expect(dupes.html).toMatch(
        /role="alert"[\s\S]*<a href="#f1-id">Field 2: id &quot;email&quot; is already used by another field<\/a>/,
      );
      expect(dupes.html).toMatch(/id="f1-id"[^>]*aria-invalid="true"/);

      const select = await client.post(
        '/dashboard/forms/new',
        {
          name: 'Topics',
          'f0.id': 'topic',
          'f0.type': 'select',
          'f0.options': '',
        },
        { from: '/dashboard/forms/new' },
      );
      expect(select.status).toBe(400);
      expect(select.html).toMatch(
        /<a href="#f0-options">Field 1: options [^<]+<\/a>/,
      );
      expect(select.html).toMatch(/id="f0-options"[^>]*aria-invalid="true"/);
      expect((await client.get('/dashboard/forms')).html).not.toMatch(
        /Dupes|Topics/,
      );
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
    const { account } = await createAccount(t, 'existing@example.com');
    const client = new DashboardClient(t.url);
    expect((await client.logIn(account.email)).status).toBe(303);
    expect((await client.get('/dashboard/forms')).status).toBe(200);
  });
});
