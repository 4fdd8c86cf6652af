// The real ALTCHA widget, served by the app, in Chromium on a page of another origin: it
// fetches a challenge from the app, solves it with the default cost, and the form posts
// its answer natively and with fetch — proof that the widget and the server agree on the
// challenge, the algorithm and the payload. A replayed answer is refused. The snippet the
// dashboard gives solves itself while the visitor fills the form in: pressing Send without
// touching the widget sends the form.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { htmlSnippet } from '../../src/dashboard/forms/snippets.js';
import { Submission } from '../../src/submissions/submission.entity.js';
import { createAccount } from '../factories/accounts.js';
import { CONTACT_FIELDS, createForm } from '../factories/forms.js';
import { describeBrowser, launchBrowser } from '../support/browser.js';
import { request } from '../support/http.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

function page(appUrl: string, formId: string): string {
  const submitUrl = `${appUrl}/api/submit/${formId}`;
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>Contact</title>
<script src="${appUrl}/static/altcha/altcha.js" async defer></script>
</head>
<body>
  <form id="contact" action="${submitUrl}" method="POST">
    <input name="name" value="Native Form">
    <input name="email" type="email" value="native@example.com">
    <altcha-widget challenge="${submitUrl}/challenge" auto="onload" configuration='{"minDuration": 0}'></altcha-widget>
    <button type="submit">Send</button>
  </form>
  <script>
    window.solvedIn = null;
    const started = performance.now();
    document.addEventListener('verified', () => {
      window.solvedIn = performance.now() - started;
    }, true);
    async function postWithFetch() {
      const res = await fetch(${JSON.stringify(submitUrl)}, {
        method: 'POST',
        body: new FormData(document.getElementById('contact')),
      });
      return { status: res.status, body: await res.json() };
    }
  </script>
</body></html>`;
}

/** What the page's script defines on window. */
interface PageScript {
  /** How long the widget took to solve its challenge, in ms (null until solved). */
  solvedIn: number | null;
  postWithFetch(): Promise<{ status: number; body: unknown }>;
}

describeBrowser(
  'the ALTCHA widget on a page of another origin (browser)',
  () => {
    let t: TestApp;
    let site: Server;
    let siteOrigin: string;
    let browser: Browser;
    let tab: Page;
    let formId: string;

    beforeAll(async () => {
      // The default ALTCHA_COST: the work a visitor's browser really does.
      t = await createTestApp({ env: { SUBMIT_RATE_LIMIT: '1000' } });
      const { account } = await createAccount(t);
      const form = await createForm(t, account.id);
      formId = form.form.id;
      const res = await request(`${t.url}/api/v1/forms/${formId}`, {
        method: 'PATCH',
        apiKey: form.apiKey,
        json: { captcha: { provider: 'altcha' } },
      });
      expect(res.status).toBe(200);
      const html = page(t.url, formId);
      site = createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(html);
      });
      await new Promise<void>((resolve) =>
        site.listen(0, '127.0.0.1', resolve),
      );
      siteOrigin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
      expect(siteOrigin).not.toBe(t.url);
      browser = await launchBrowser();
    });

    beforeEach(async () => {
      tab = await browser.newPage();
      await tab.goto(`${siteOrigin}/contact.html`);
      // The widget adds its answer to the form once it has solved the challenge.
      await tab.waitForFunction(
        () =>
          (
            document.querySelector(
              'input[name="altcha"]',
            ) as HTMLInputElement | null
          )?.value,
        undefined,
        { timeout: 60_000 },
      );
    }, 90_000);
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

    it('solves a real challenge and posts the form natively', async () => {
      const solvedIn = await tab.evaluate(
        () => (window as unknown as PageScript).solvedIn,
      );
      console.log(
        `ALTCHA solved by Chromium with the default cost in ${Math.round(solvedIn ?? Number.NaN)} ms (load ${(
          await import('node:os')
        )
          .loadavg()
          .map((n) => n.toFixed(1))
          .join(' ')})`,
      );
      const before = (await storedRows()).length;
      const submitUrl = `${t.url}/api/submit/${formId}`;
      await Promise.all([
        tab.waitForURL(submitUrl),
        tab.click('button[type=submit]'),
      ]);
      expect(await tab.innerText('h1')).toBe('Thank you');
      const rows = await storedRows();
      expect(rows).toHaveLength(before + 1);
      expect(rows.at(-1)!.data).toEqual({
        name: 'Native Form',
        email: 'native@example.com',
      });
      expect(rows.at(-1)!.spam).toBe(false);
      expect(rows.at(-1)!.origin).toBe(siteOrigin);
    });

    it('posts the same answer with fetch once, and a replay is refused', async () => {
      const before = (await storedRows()).length;
      const first = await tab.evaluate(() =>
        (window as unknown as PageScript).postWithFetch(),
      );
      expect(first).toEqual({
        status: 200,
        body: { success: true, message: 'Submission received' },
      });
      const replay = await tab.evaluate(() =>
        (window as unknown as PageScript).postWithFetch(),
      );
      expect(replay).toEqual({
        status: 400,
        body: {
          error: 'Validation failed',
          errors: [
            'captcha: this ALTCHA solution was already used: solve a new one',
          ],
        },
      });
      expect((await storedRows()).length).toBe(before + 1);
    });
  },
);

describeBrowser(
  "the dashboard's ALTCHA snippet, as a visitor uses it (browser)",
  () => {
    let t: TestApp;
    let site: Server;
    let siteOrigin: string;
    let browser: Browser;
    let formId: string;

    beforeAll(async () => {
      t = await createTestApp({ env: { SUBMIT_RATE_LIMIT: '1000' } });
      const { account } = await createAccount(t);
      const form = await createForm(t, account.id, { fields: CONTACT_FIELDS });
      formId = form.form.id;
      // No grace period: a post without the widget's answer would be refused, so a 200
      // proves the answer was sent.
      const res = await request(`${t.url}/api/v1/forms/${formId}`, {
        method: 'PATCH',
        apiKey: form.apiKey,
        json: { captcha: { provider: 'altcha', graceUntil: null } },
      });
      expect(res.status).toBe(200);
      // The snippet exactly as the form's dashboard page offers it.
      const snippet = htmlSnippet(
        `${t.url}/api/submit/${formId}`,
        CONTACT_FIELDS,
        {
          provider: 'altcha',
          siteKey: null,
          widgetUrl: `${t.url}/static/altcha/altcha.js`,
        },
      );
      expect(snippet).toContain('auto="onload"');
      const html = `<!doctype html><html><head><meta charset="utf-8"><title>Contact</title></head><body>\n${snippet}\n</body></html>`;
      site = createServer((_req, reply) => {
        reply.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        reply.end(html);
      });
      await new Promise<void>((resolve) =>
        site.listen(0, '127.0.0.1', resolve),
      );
      siteOrigin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
      browser = await launchBrowser();
    });
    afterAll(async () => {
      await browser?.close();
      await new Promise((resolve) => site?.close(resolve));
      await t?.close();
    });

    it('solves itself while the visitor types: Send, untouched, gets the thank-you page', async () => {
      const tab = await browser.newPage();
      try {
        await tab.goto(`${siteOrigin}/contact.html`);
        // A person types; nobody clicks, focuses or ticks the widget.
        await tab.locator('input[name="name"]').pressSequentially('Ada', {
          delay: 50,
        });
        await tab
          .locator('input[name="email"]')
          .pressSequentially('ada@example.com', { delay: 50 });
        await tab.locator('textarea[name="message"]').fill('Hello');
        // Solved on its own: the widget has put its answer into the form.
        await tab.waitForFunction(
          () =>
            (
              document.querySelector(
                'input[name="altcha"]',
              ) as HTMLInputElement | null
            )?.value,
          undefined,
          { timeout: 60_000 },
        );
        const submitUrl = `${t.url}/api/submit/${formId}`;
        const [answer] = await Promise.all([
          tab.waitForResponse(
            (response) =>
              response.url() === submitUrl &&
              response.request().method() === 'POST',
          ),
          tab.click('button[type=submit]'),
        ]);
        expect(answer.status()).toBe(200);
        await tab.waitForURL(submitUrl);
        expect(await tab.innerText('h1')).toBe('Thank you');
        const rows = await t.dataSource
          .getRepository(Submission)
          .find({ where: { formId } });
        expect(rows).toHaveLength(1);
        expect(rows[0].data).toEqual({
          name: 'Ada',
          email: 'ada@example.com',
          message: 'Hello',
        });
        expect([rows[0].spam, rows[0].spamReasons]).toEqual([false, null]);
      } finally {
        await tab.close();
      }
    }, 120_000);
  },
);
