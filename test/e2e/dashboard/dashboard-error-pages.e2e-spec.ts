// The dashboard's error pages for requests Fastify refuses before a controller runs (a body
// too large, a content type no route reads, a malformed body): the same status the API
// gives (toErrorResponse), shown as the dashboard's HTML page, never JSON and never a 500.
import {
  csrfOf,
  type DashboardClient,
  signedInClient,
  textOf,
} from '../../support/dashboard-client.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

describe('dashboard error pages (e2e)', () => {
  let t: TestApp;
  let client: DashboardClient;
  let csrf: string;

  beforeAll(async () => {
    // Loopback is a trusted proxy here, so tests can speak for other client IPs.
    t = await createTestApp({ env: { TRUST_PROXY: '127.0.0.1' } });
    client = await signedInClient(t.url, '203.0.113.90');
    csrf = csrfOf((await client.get('/dashboard/forms/new')).html);
  });
  afterAll(async () => {
    await t?.close();
  });

  function expectErrorPage(
    page: { status: number; headers: Headers; html: string },
    status: number,
  ): string {
    expect(page.status).toBe(status);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.html).toMatch(/^<!doctype html>/i);
    expect(page.html).toContain(`Error ${status}`);
    // Nothing of the server's insides: no stack frame, no error code, no JSON body.
    expect(page.html).not.toMatch(/ at \S+ \(|FST_ERR|node_modules|"error"/);
    return textOf(page.html);
  }

  it('answers a form post larger than the body limit with a 413 HTML page', async () => {
    const body = new URLSearchParams({
      _csrf: csrf,
      name: 'x'.repeat(t.config.submitBodyLimit + 1),
    }).toString();
    const page = await client.send('POST', '/dashboard/forms/new', body);
    const text = expectErrorPage(page, 413);
    expect(text).toContain('That was too much to send');
    expect(text).toContain('Request body is too large');
    // Nothing was created.
    expect((await client.get('/dashboard/forms')).html).not.toContain('xxxx');
  });

  it('answers a refused post to the email confirmation page (no session needed) with the same HTML page', async () => {
    const response = await fetch(`${t.url}/confirm-email/${'a'.repeat(43)}`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'confirm',
    });
    const page = {
      status: response.status,
      headers: response.headers,
      html: await response.text(),
    };
    const text = expectErrorPage(page, 415);
    expect(text).toContain('That kind of request is not accepted');
    expect(text).toContain('Unsupported content type');
  });

  it('answers a post in a content type no dashboard form sends with a 415 HTML page', async () => {
    const page = await client.send(
      'POST',
      '/dashboard/forms/new',
      `_csrf=${csrf}&name=Plain`,
      'text/plain',
    );
    const text = expectErrorPage(page, 415);
    expect(text).toContain('That kind of request is not accepted');
    expect(text).toContain('Unsupported content type');
    expect((await client.get('/dashboard/forms')).html).not.toContain('Plain');
  });

  it('answers a malformed JSON body with a 400 HTML page', async () => {
    const page = await client.send(
      'POST',
      '/dashboard/forms/new',
      '{"name": "Broken",',
      'application/json',
    );
    const text = expectErrorPage(page, 400);
    expect(text).toContain('Something is wrong with that request');
    expect(text).toContain('Request body is not valid JSON');
  });

  it('shows the way back to the forms list on an error page of a signed-in owner', async () => {
    const page = await client.get('/dashboard/forms/no-such-form/settings');
    const text = expectErrorPage(page, 404);
    expect(text).toContain('Page not found');
    expect(page.html).toContain('href="/dashboard/forms"');
  });
});
