// Real Chromium on a page of another origin posting the way websites do: native HTML forms
// (form-encoded and multipart) that end on a thank-you page, on the form's redirectUrl or on
// a page listing the errors, and fetch() with `new FormData(form)` reading the JSON answer.
// Whatever the path, the row holds what was typed.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { FormsService } from '../../src/forms/forms.service.js';
import { Submission } from '../../src/submissions/submission.entity.js';
import { createAccount } from '../factories/accounts.js';
import { createForm } from '../factories/forms.js';
import { describeBrowser, launchBrowser } from '../support/browser.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const TYPED = {
  name: 'Zoë Ångström-東京',
  email: 'zoe@example.com',
  message: 'Line one + two & three = 100 %\nLine two: %20 a=b&c=d 👋',
};

function sitePage(action: string, enctype: string): string {
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>Contact</title></head>
<body>
  <form id="contact" action="${action}" method="POST" enctype="${enctype}" novalidate>
    <label>Name <input name="name"></label>
    <label>Email <input name="email" type="email"></label>
    <label>Message <textarea name="message"></textarea></label>
    <input name="_honeypot" type="text" style="display:none" tabindex="-1" autocomplete="off">
    <button type="submit">Send</button>
  </form>
  <p id="status" role="status"></p>
  <script>
    async function sendWithFetch() {
      const form = document.getElementById('contact');
      const response = await fetch(form.action, { method: 'POST', body: new FormData(form) });
      return { status: response.status, type: response.headers.get('content-type'), body: await response.json() };
    }
  </script>
</body></html>`;
}

/** What the page's script defines on window. */
interface PageScript {
  sendWithFetch(): Promise<{
    status: number;
    type: string | null;
    body: unknown;
  }>;
}

describeBrowser('native form posts from another origin (browser)', () => {
  let t: TestApp;
  let site: Server;
  let siteOrigin: string;
  let browser: Browser;
  let tab: Page;
  let thanksForm: string;
  let redirectForm: string;

  beforeAll(async () => {
    t = await createTestApp({ env: { SUBMIT_RATE_LIMIT: '1000' } });
    const { account } = await createAccount(t);
    thanksForm = (await createForm(t, account.id)).form.id;
    redirectForm = (await createForm(t, account.id)).form.id;
    site = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://site');
      if (url.pathname === '/thanks') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(
          '<!doctype html><title>Thanks</title><h1>Thanks from the site</h1>',
        );
        return;
      }
      const formId = url.searchParams.get('form') ?? thanksForm;
      const enctype =
        url.searchParams.get('enctype') ?? 'application/x-www-form-urlencoded';
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(sitePage(`${t.url}/api/submit/${formId}`, enctype));
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteOrigin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    expect(siteOrigin).not.toBe(t.url);
    const forms = t.app.get(FormsService);
    const owner = { kind: 'account', accountId: account.id } as never;
    await forms.patch(await forms.findAccessible(owner, thanksForm), {
      successMessage: 'Thanks! We answer within a day.',
    });
    await forms.patch(await forms.findAccessible(owner, redirectForm), {
      redirectUrl: `${siteOrigin}/thanks`,
    });
    browser = await launchBrowser();
  });

  beforeEach(async () => {
    tab = await browser.newPage();
  });
  afterEach(async () => {
    await tab?.close();
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => site?.close(resolve));
    await t?.close();
  });

  const rowsOf = (formId: string) =>
    t.dataSource
      .getRepository(Submission)
      .find({ where: { formId }, order: { id: 'ASC' } });

  async function open(formId: string, enctype?: string): Promise<void> {
    const query = new URLSearchParams({ form: formId });
    if (enctype) query.set('enctype', enctype);
    await tab.goto(`${siteOrigin}/contact?${query.toString()}`);
  }

  async function fill(values: Partial<typeof TYPED>): Promise<void> {
    for (const [name, value] of Object.entries(values)) {
      await tab.fill(`[name=${name}]`, value);
    }
  }

  /** What the browser sends for a textarea: its line breaks as CRLF (HTML's form rules). */
  const sent = (typed: typeof TYPED) => ({
    ...typed,
    message: typed.message.replace(/\n/g, '\r\n'),
  });

  it('lands a form-encoded post on the thank-you page and stores what was typed', async () => {
    await open(thanksForm);
    await fill(TYPED);
    await Promise.all([
      tab.waitForURL(`${t.url}/api/submit/${thanksForm}`),
      tab.click('button[type=submit]'),
    ]);
    await expect(tab.title()).resolves.toBe('Thank you');
    // The inline style passed the page's Content-Security-Policy.
    expect(
      await tab.evaluate(
        () => getComputedStyle(document.querySelector('main')!).borderTopWidth,
      ),
    ).toBe('1px');
    expect(await tab.innerText('h1')).toBe('Thank you');
    expect(await tab.innerText('main')).toContain(
      'Thanks! We answer within a day.',
    );
    const rows = await rowsOf(thanksForm);
    expect(rows.at(-1)?.data).toEqual(sent(TYPED));
    expect(rows.at(-1)?.origin).toBe(siteOrigin);

    // The link back returns to the form page.
    await Promise.all([
      tab.waitForURL(/\/contact\?/),
      tab.click('a[data-back]'),
    ]);
    expect(await tab.title()).toBe('Contact');
  });

  it('lands an enctype="multipart/form-data" post on the redirectUrl', async () => {
    await open(redirectForm, 'multipart/form-data');
    await fill(TYPED);
    await Promise.all([
      tab.waitForURL(`${siteOrigin}/thanks`),
      tab.click('button[type=submit]'),
    ]);
    expect(await tab.innerText('h1')).toBe('Thanks from the site');
    const rows = await rowsOf(redirectForm);
    expect(rows.at(-1)?.data).toEqual(sent(TYPED));
  });

  it('shows the error page listing a missing required field, and stores nothing', async () => {
    for (const enctype of [
      'application/x-www-form-urlencoded',
      'multipart/form-data',
    ]) {
      const before = (await rowsOf(thanksForm)).length;
      await open(thanksForm, enctype);
      await fill({ email: 'not-an-address', message: 'Hi' });
      await Promise.all([
        tab.waitForURL(`${t.url}/api/submit/${thanksForm}`),
        tab.click('button[type=submit]'),
      ]);
      expect(await tab.innerText('h1')).toBe('Please check the form');
      // Named by the labels the form gives its fields, not by their ids.
      expect(await tab.locator('li').allInnerTexts()).toEqual([
        'Name is required',
        'Email must be a valid email address',
      ]);
      expect((await rowsOf(thanksForm)).length).toBe(before);
      // Back to the form, with what was typed still there.
      await Promise.all([
        tab.waitForURL(/\/contact\?/),
        tab.click('a[data-back]:has-text("Back to the form")'),
      ]);
      expect(await tab.inputValue('[name=email]')).toBe('not-an-address');
      expect(await tab.inputValue('[name=message]')).toBe('Hi');
    }
  });

  it('sends new FormData(form) with fetch, reads the JSON answer and stores the row', async () => {
    await open(redirectForm);
    await fill(TYPED);
    const result = await tab.evaluate(() =>
      (window as unknown as PageScript).sendWithFetch(),
    );
    expect(result).toEqual({
      status: 200,
      type: 'application/json; charset=utf-8',
      body: { success: true, message: 'Submission received' },
    });
    const rows = await rowsOf(redirectForm);
    expect(rows.at(-1)?.data).toEqual(sent(TYPED));
  });
});
