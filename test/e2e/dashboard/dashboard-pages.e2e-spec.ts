// The dashboard pages of a signed-in owner: forms, form detail and settings, account.
import { AccountsService } from '../../../src/accounts/accounts.service.js';
import { createAccount } from '../../factories/accounts.js';
import { insertSubmissions } from '../../factories/submissions.js';
import { createForm } from '../../factories/forms.js';
import {
  DashboardClient,
  textOf,
  freshEmail,
  signedInClient,
} from '../../support/dashboard-client.js';
import { request } from '../../support/http.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

const XSS = '<img src=x onerror="window.__xss=1">';
const ESCAPED_XSS = '&lt;img src=x onerror=&quot;window.__xss=1&quot;&gt;';

describe('dashboard pages (e2e)', () => {
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

  describe('pages', () => {
    it('explains a duplicate email at sign-up beside the field', async () => {
      const { user } = await createAccount(t, freshEmail());
      const client = new DashboardClient(t.url);
      client.headers['x-forwarded-for'] = '203.0.113.77';
      const res = await client.signUp(user.email.toUpperCase());
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
      await insertSubmissions(
        t,
        form.id,
        Array.from({ length: 30 }, (_, i) => ({
          id: `01JTEST${String(i).padStart(19, '0')}`,
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
