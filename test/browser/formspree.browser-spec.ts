// Real Chromium on a page of another origin using Formspree's own client library
// (@formspree/core 4, its ESM build served by the site) with `endpoint` pointed at this
// service: the browser runs the real CORS preflight for the `Formspree-Client` and
// `Formspree-Session-Data` headers before each post. And a native
// `<form action=".../f/<id>">` post, which ends on the thank-you page or on redirectUrl.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { join, dirname } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { FormsService } from '../../src/forms/forms.service.js';
import { Submission } from '../../src/submissions/submission.entity.js';
import { createAccount } from '../factories/accounts.js';
import { createForm } from '../factories/forms.js';
import { describeBrowser, launchBrowser } from '../support/browser.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const CORE_ESM = readFileSync(
  join(
    dirname(createRequire(import.meta.url).resolve('@formspree/core')),
    'index.mjs',
  ),
  'utf8',
);

function sitePage(endpoint: string, formId: string, action: string): string {
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>Contact</title></head>
<body>
  <form id="contact" action="${action}" method="POST">
    <input name="name" value="Native Visitor">
    <input name="email" type="email" value="native@example.com">
    <input name="_gotcha" type="text" style="display:none" tabindex="-1" autocomplete="off">
    <input name="_next" type="hidden" value="http://evil.invalid/phish">
    <button type="submit">Send</button>
  </form>
  <script type="module">
    import { createClient } from '/core.mjs';
    const client = createClient();
    const describe = (result) => result.kind === 'success'
      ? { kind: result.kind, next: result.next }
      : { kind: result.kind, form: result.getFormErrors(), fields: result.getAllFieldErrors() };
    window.sendObject = async (data, id = ${JSON.stringify(formId)}) =>
      describe(await client.submitForm(id, data, { endpoint: ${JSON.stringify(endpoint)} }));
    window.sendForm = async () =>
      describe(await client.submitForm(${JSON.stringify(formId)},
        new FormData(document.getElementById('contact')), { endpoint: ${JSON.stringify(endpoint)} }));
    window.sendWithHeader = async (name) => {
      try {
        const res = await fetch(${JSON.stringify(`${endpoint}/f/${formId}`)}, {
          method: 'POST', headers: { 'Content-Type': 'application/json', [name]: '1' },
          body: JSON.stringify({ name: 'Header', email: 'header@example.com' }),
        });
        return res.status;
      } catch { return 'blocked'; }
    };
    window.ready = true;
  </script>
</body></html>`;
}

/** What the page's script defines on window. */
interface PageScript {
  ready?: boolean;
  sendObject(
    data: Record<string, string>,
    id?: string,
  ): Promise<DescribedResult>;
  sendForm(): Promise<DescribedResult>;
  sendWithHeader(name: string): Promise<number | 'blocked'>;
}

/** A submission's outcome as the page's script describes it. */
interface DescribedResult {
  kind: 'success' | 'error';
  next?: string;
  form: Array<{ code: string; message: string }>;
  fields: Array<[string, Array<{ code: string; message: string }>]>;
}

describeBrowser('@formspree/core and native posts to /f (browser)', () => {
  let t: TestApp;
  let site: Server;
  let siteOrigin: string;
  let browser: Browser;
  let tab: Page;
  let formId: string;
  let redirectForm: string;

  beforeAll(async () => {
    t = await createTestApp({
      env: { SUBMIT_RATE_LIMIT: '1000', LOG_LEVEL: 'debug' },
    });
    const { account } = await createAccount(t);
    formId = (await createForm(t, account.id)).form.id;
    redirectForm = (await createForm(t, account.id)).form.id;
    site = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://site');
      if (url.pathname === '/core.mjs') {
        res.writeHead(200, { 'content-type': 'text/javascript' });
        res.end(CORE_ESM);
        return;
      }
      if (url.pathname === '/thanks') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end('<!doctype html><title>Thanks</title><h1>Site thanks</h1>');
        return;
      }
      const target = url.searchParams.get('form') ?? formId;
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(sitePage(t.url, formId, `${t.url}/f/${target}`));
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteOrigin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    expect(siteOrigin).not.toBe(t.url);
    const forms = t.app.get(FormsService);
    await forms.patch(
      await forms.findAccessible(
        { kind: 'account', accountId: account.id } as never,
        redirectForm,
      ),
      { redirectUrl: `${siteOrigin}/thanks` },
    );
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

  const rowsOf = (id: string) =>
    t.dataSource
      .getRepository(Submission)
      .find({ where: { formId: id }, order: { id: 'ASC' } });

  async function open(form?: string): Promise<void> {
    await tab.goto(`${siteOrigin}/contact${form ? `?form=${form}` : ''}`);
    await tab.waitForFunction(
      () => (window as unknown as PageScript).ready === true,
    );
  }

  const preflights = () =>
    t.logs.filter(
      (line) =>
        line.includes('"method":"OPTIONS"') &&
        line.includes(`"/f/${formId}"`) &&
        line.includes('"statusCode":204'),
    ).length;

  it('submits an object through the preflight: success, and the row', async () => {
    await open();
    const before = preflights();
    const result = await tab.evaluate(() =>
      (window as unknown as PageScript).sendObject({
        name: 'Browser Client',
        email: 'browser@example.com',
        _subject: 'Hi',
      }),
    );
    expect(result).toEqual({
      kind: 'success',
      next: `${t.config.publicUrl}/f/${formId}/thanks`,
    });
    expect(preflights()).toBeGreaterThan(before);
    const row = (await rowsOf(formId)).find(
      (r) => r.data.name === 'Browser Client',
    );
    expect(row?.data).toEqual({
      name: 'Browser Client',
      email: 'browser@example.com',
    });
    expect(row?.origin).toBe(siteOrigin);
  });

  it('submits a FormData of the form (its _gotcha left empty)', async () => {
    await open();
    const result = await tab.evaluate(() =>
      (window as unknown as PageScript).sendForm(),
    );
    expect(result.kind).toBe('success');
    const row = (await rowsOf(formId)).find(
      (r) => r.data.name === 'Native Visitor',
    );
    expect(row?.data).toEqual({
      name: 'Native Visitor',
      email: 'native@example.com',
    });
  });

  it('reads field errors and form errors by code', async () => {
    await open();
    const before = (await rowsOf(formId)).length;
    const invalid = await tab.evaluate(() =>
      (window as unknown as PageScript).sendObject({ email: 'nope' }),
    );
    expect(invalid).toEqual({
      kind: 'error',
      form: [],
      fields: [
        [
          'name',
          [{ code: 'REQUIRED_FIELD_MISSING', message: 'name is required' }],
        ],
        [
          'email',
          [
            {
              code: 'TYPE_EMAIL',
              message: 'email must be a valid email address',
            },
          ],
        ],
      ],
    });
    const unknown = await tab.evaluate(() =>
      (window as unknown as PageScript).sendObject(
        { name: 'x' },
        'no-such-form',
      ),
    );
    expect(unknown.form).toEqual([
      { code: 'FORM_NOT_FOUND', message: 'Form not found' },
    ]);
    const empty = await tab.evaluate(() =>
      (window as unknown as PageScript).sendObject({}),
    );
    expect(empty.form[0].code).toBe('EMPTY');
    expect((await rowsOf(formId)).length).toBe(before);
  });

  it('refuses a header the preflight does not admit', async () => {
    await open();
    expect(
      await tab.evaluate(() =>
        (window as unknown as PageScript).sendWithHeader(
          'Formspree-Session-Data',
        ),
      ),
    ).toBe(200);
    expect(
      await tab.evaluate(() =>
        (window as unknown as PageScript).sendWithHeader('X-Unlisted'),
      ),
    ).toBe('blocked');
  });

  it('lands a native post on the thank-you page, ignoring a foreign _next', async () => {
    await open();
    await Promise.all([
      tab.waitForURL(`${t.url}/f/${formId}`),
      tab.click('button[type=submit]'),
    ]);
    expect(await tab.innerText('h1')).toBe('Thank you');
  });

  it("follows the 303 to the form's redirectUrl, never to _next", async () => {
    await open(redirectForm);
    await Promise.all([
      tab.waitForURL(`${siteOrigin}/thanks`),
      tab.click('button[type=submit]'),
    ]);
    expect(await tab.innerText('h1')).toBe('Site thanks');
    expect((await rowsOf(redirectForm)).map((r) => r.data)).toEqual([
      { name: 'Native Visitor', email: 'native@example.com' },
    ]);
  });
});
