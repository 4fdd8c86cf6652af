// A real browser on a page of another origin (another loopback port) posts to the app:
// a native HTML form post and a fetch() with JSON whose response the script reads —
// which only works when the submit route's CORS headers are right.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { Submission } from '../../src/submissions/submission.entity.js';
import { createAccount } from '../factories/accounts.js';
import { createForm } from '../factories/forms.js';
import { describeBrowser, launchBrowser } from '../support/browser.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

function page(submitUrl: string, apiUrl: string): string {
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>Contact</title></head>
<body>
  <form id="contact" action="${submitUrl}" method="POST">
    <input name="name" value="Native Form">
    <input name="email" type="email" value="native@example.com">
    <textarea name="message">Sent by a real HTML form</textarea>
    <input name="_honeypot" type="text" style="display:none" tabindex="-1" autocomplete="off">
    <button type="submit">Send</button>
  </form>
  <script>
    async function post(body) {
      const res = await fetch(${JSON.stringify(submitUrl)}, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      return {
        status: res.status,
        body: await res.json(),
        remaining: res.headers.get('X-RateLimit-Remaining'),
        policy: res.headers.get('RateLimit-Policy'),
      };
    }
    async function readPrivateApi() {
      try {
        await fetch(${JSON.stringify(apiUrl)});
        return 'read';
      } catch (error) {
        return 'blocked';
      }
    }
  </script>
</body></html>`;
}

/** What the page's script defines on window. */
interface PageScript {
  post(body: Record<string, string>): Promise<{
    status: number;
    body: { errors?: string[] } & Record<string, unknown>;
    remaining: string | null;
    policy: string | null;
  }>;
  readPrivateApi(): Promise<'read' | 'blocked'>;
}

describeBrowser('submit from a page of another origin (browser)', () => {
  let t: TestApp;
  let site: Server;
  let siteOrigin: string;
  let browser: Browser;
  let tab: Page;
  let formId: string;

  beforeAll(async () => {
    t = await createTestApp({ env: { SUBMIT_RATE_LIMIT: '1000' } });
    const { account } = await createAccount(t);
    formId = (await createForm(t, account.id)).form.id;
    const html = page(`${t.url}/api/submit/${formId}`, `${t.url}/api/v1/forms`);
    site = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(html);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteOrigin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    expect(siteOrigin).not.toBe(t.url);
    browser = await launchBrowser();
  });

  beforeEach(async () => {
    tab = await browser.newPage();
    await tab.goto(`${siteOrigin}/contact.html`);
  });
  afterEach(async () => {
    await tab?.close();
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => site?.close(resolve));
    await t?.close();
  });

  const storedRows = () =>
    t.dataSource
      .getRepository(Submission)
      .find({ where: { formId }, order: { id: 'ASC' } });

  it('posts JSON with fetch and reads the answer and the rate-limit headers', async () => {
    const result = await tab.evaluate(() =>
      (window as unknown as PageScript).post({
        name: 'Fetch Client',
        email: 'fetch@example.com',
      }),
    );
    expect(result).toEqual({
      status: 200,
      body: { success: true, message: 'Submission received' },
      remaining: expect.stringMatching(/^\d+$/),
      policy: '"submit";q=1000;w=60',
    });
    const rows = await storedRows();
    const row = rows.find((r) => r.data.name === 'Fetch Client');
    expect(row?.data).toEqual({
      name: 'Fetch Client',
      email: 'fetch@example.com',
    });
    expect(row?.origin).toBe(siteOrigin);
  });

  it('lets the script read a validation error too', async () => {
    const before = (await storedRows()).length;
    const result = await tab.evaluate(() =>
      (window as unknown as PageScript).post({ email: 'nope' }),
    );
    expect(result.status).toBe(400);
    expect(result.body).toEqual({
      error: 'Validation failed',
      errors: ['name is required', 'email must be a valid email address'],
    });
    expect((await storedRows()).length).toBe(before);
  });

  it('posts a native HTML form', async () => {
    const submitUrl = `${t.url}/api/submit/${formId}`;
    await Promise.all([
      tab.waitForURL(submitUrl),
      tab.click('button[type=submit]'),
    ]);
    // A person's browser gets the thank-you page, not JSON.
    expect(await tab.innerText('h1')).toBe('Thank you');
    const rows = await storedRows();
    const row = rows.find((r) => r.data.name === 'Native Form');
    expect(row?.data).toEqual({
      name: 'Native Form',
      email: 'native@example.com',
      message: 'Sent by a real HTML form',
    });
    expect(row?.origin).toBe(siteOrigin);
    expect(row?.userAgent).toMatch(/Chrome/);
  });

  it('cannot read the key-protected API from that page', async () => {
    expect(
      await tab.evaluate(() =>
        (window as unknown as PageScript).readPrivateApi(),
      ),
    ).toBe('blocked');
  });
});
