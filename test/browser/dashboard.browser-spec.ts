// The dashboard as a new owner meets it, in the system Chromium: sign up, build a form,
// paste its snippet into another site, read and export submissions, change the form,
// verify a domain, rotate keys and delete the form — driven by role and label only.
import { readFile } from 'node:fs/promises';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { request } from '../support/http.js';
import { describeBrowser, launchBrowser } from '../support/browser.js';
import {
  screenshot,
  startCustomerSite,
  type CustomerSite,
} from '../support/dashboard-browser.js';
import { startDnsServer, type TestDnsServer } from '../support/dns-server.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const PASSWORD = 'blue-harbour-1987';
const XSS = '<img src=x onerror="window.__xss=1">';

describeBrowser('dashboard journey (browser)', () => {
  let t: TestApp;
  let dns: TestDnsServer;
  let site: CustomerSite;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  /** Content-Security-Policy violations reported by the browser on dashboard pages. */
  const cspViolations: string[] = [];

  let formId = '';
  let apiKey = '';
  let detailUrl = '';

  beforeAll(async () => {
    dns = await startDnsServer();
    // The journey submits more than the default 10 per minute from loopback.
    t = await createTestApp({
      env: { DNS_SERVERS: dns.address, SUBMIT_RATE_LIMIT: '1000' },
    });
    site = await startCustomerSite();
    browser = await launchBrowser();
    context = await browser.newContext({
      acceptDownloads: true,
      viewport: { width: 1280, height: 900 },
    });
    page = await context.newPage();
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) {
        cspViolations.push(`${page.url()}: ${message.text()}`);
      }
    });
  });

  afterAll(async () => {
    await browser?.close();
    await site?.close();
    await t?.close();
    await dns?.close();
  });

  it('signs a new owner up and lands on an empty forms list', async () => {
    await page.goto(`${t.url}/dashboard`);
    await expectHeading(page, 'Log in to Formgate');
    await page.getByRole('link', { name: 'Create an account' }).click();
    await expectHeading(page, 'Create your Formgate account');
    await page.getByLabel('Email').fill('ada@example.com');
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByLabel('Confirm password').fill('short');
    await page.getByRole('button', { name: 'Create account' }).click();
    // Errors are summarised at the top and shown beside the field.
    const summary = page.getByRole('alert');
    await expect(summary.textContent()).resolves.toMatch(
      /at least 10 characters/,
    );
    await expect(
      page.getByLabel('Password', { exact: true }).getAttribute('aria-invalid'),
    ).resolves.toBe('true');
    await screenshot(page, 'signup-errors');

    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expectHeading(page, 'Forms');
    await expect(
      page.getByRole('heading', { name: 'Create your first form' }).isVisible(),
    ).resolves.toBe(true);
    await screenshot(page, 'forms-empty');
  });

  it('creates a form with three fields in the fields editor', async () => {
    await page.getByRole('link', { name: 'New form' }).first().click();
    await expectHeading(page, 'New form');
    await page.getByLabel('Form name').fill('Contact');
    await fillField(page, 1, { id: 'name', label: 'Name', required: true });
    await page.getByRole('button', { name: '+ Add field' }).click();
    await fillField(page, 2, {
      id: 'email',
      label: 'Email',
      type: 'email',
      required: true,
    });
    await page.getByRole('button', { name: '+ Add field' }).click();
    await fillField(page, 3, {
      id: 'message',
      label: 'Message',
      type: 'textarea',
    });
    // The rows typed so far survive each round trip.
    await expect(
      field(page, 1).getByLabel('ID', { exact: true }).inputValue(),
    ).resolves.toBe('name');
    await screenshot(page, 'new-form');
    await page.getByRole('button', { name: 'Create form' }).click();
    await expectHeading(page, 'Contact');
    await expect(
      page.getByRole('status').first().textContent(),
    ).resolves.toMatch(/Form created/);
  });

  it('shows the form id and, on request, the API key', async () => {
    detailUrl = page.url().replace(/\?.*$/, '');
    formId = await page.getByLabel('Form ID').inputValue();
    expect(formId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(detailUrl).toBe(`${t.url}/dashboard/forms/${formId}`);

    const key = page.getByLabel('API key', { exact: true });
    await expect(key.isVisible()).resolves.toBe(false);
    await page.getByText('Show API key').click();
    await expect(key.isVisible()).resolves.toBe(true);
    apiKey = await key.inputValue();
    expect(apiKey).toMatch(/^fgk_/);
    await expect(
      page.getByRole('button', { name: 'Copy API key' }).isVisible(),
    ).resolves.toBe(true);

    const api = await request(`${t.url}/api/v1/forms/${formId}`, { apiKey });
    expect(api.status).toBe(200);
    expect(api.body.fields.map((f: { id: string }) => f.id)).toEqual([
      'name',
      'email',
      'message',
    ]);
  });

  it('accepts a submission posted by the copied HTML snippet from another origin', async () => {
    const snippet = await page.getByLabel('HTML form').inputValue();
    expect(snippet).toContain(`action="${t.url}/api/submit/${formId}"`);
    expect(snippet).toMatch(
      /<input type="text" name="_honeypot" tabindex="-1" autocomplete="off"/,
    );
    site.setPage('/contact', snippet);

    const visitor = await context.newPage();
    await visitor.goto(`${site.url}/contact`);
    // The honeypot is in the page but not something a person sees.
    await expect(
      visitor.locator('input[name="_honeypot"]').isVisible({ timeout: 1000 }),
    ).resolves.toBe(true);
    await expect(
      visitor.locator('input[name="_honeypot"]').boundingBox(),
    ).resolves.toMatchObject({ x: -10000 });
    await visitor.getByLabel('Name').fill('Ada Lovelace');
    await visitor.getByLabel('Email').fill('ada@example.org');
    await visitor.getByLabel('Message').fill('Hello from the snippet');
    await visitor.getByRole('button', { name: 'Send' }).click();
    await visitor.waitForURL(`${t.url}/api/submit/${formId}`);
    // A person's browser lands on a thank-you page, not on the JSON a script reads.
    await expect(visitor.title()).resolves.toBe('Thank you');
    expect(await visitor.innerText('h1')).toBe('Thank you');
    await visitor.close();
  });

  it('accepts a submission sent by the fetch snippet from another origin', async () => {
    site.setPage(
      '/fetch',
      await page.getByLabel('JavaScript (fetch)').inputValue(),
    );
    const visitor = await context.newPage();
    await visitor.goto(`${site.url}/fetch`);
    await visitor.getByLabel('Name').fill('Grace Hopper');
    await visitor.getByLabel('Email').fill('grace@example.org');
    await visitor.getByRole('button', { name: 'Send' }).click();
    await visitor
      .getByRole('status')
      .filter({ hasText: 'Thank you' })
      .waitFor();
    await visitor.close();
  });

  it('lists the submissions, newest first, and renders hostile values as text', async () => {
    const hostile = await request(`${t.url}/api/submit/${formId}`, {
      json: { name: XSS, email: 'mallory@example.org', message: XSS },
    });
    expect(hostile.status).toBe(200);

    await page.goto(detailUrl);
    const rows = page
      .getByRole('table', { name: /Submissions/ })
      .getByRole('row');
    await expect(rows.count()).resolves.toBe(4); // header + 3
    await expect(rows.nth(1).textContent()).resolves.toContain(XSS);
    await expect(rows.nth(2).textContent()).resolves.toContain('Grace Hopper');
    await expect(rows.nth(3).textContent()).resolves.toContain('Ada Lovelace');
    await expect(
      page.getByRole('cell', { name: XSS, exact: true }).first().isVisible(),
    ).resolves.toBe(true);
    // Nothing from the submission became markup, and nothing ran.
    await expect(page.locator('main table img').count()).resolves.toBe(0);
    await expect(
      page.evaluate(() => (window as { __xss?: unknown }).__xss),
    ).resolves.toBeUndefined();
    await expect(
      page.getByText('3 submissions in total').isVisible(),
    ).resolves.toBe(true);
    await screenshot(page, 'form-detail');
  });

  it('exports the submissions as CSV', async () => {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(
      /^contact-submissions.*\.csv$/,
    );
    const csv = await readFile(await download.path(), 'utf8');
    const lines = csv.trim().split(/\r\n/);
    expect(lines[0]).toBe('id,createdAt,name,email,message');
    expect(lines).toHaveLength(4);
    expect(csv).toContain(
      'Ada Lovelace,ada@example.org,Hello from the snippet',
    );
  });

  it('changes a field in the settings and the submit validation follows', async () => {
    const before = await request(`${t.url}/api/submit/${formId}`, {
      json: { name: 'No Message', email: 'n@example.org' },
    });
    expect(before.status).toBe(200);

    await page.getByRole('link', { name: 'Settings' }).click();
    await expectHeading(page, 'Form settings');
    await field(page, 3).getByLabel('Required').check();
    // Reorder without JavaScript help: the message moves above the email.
    await page.getByRole('button', { name: 'Move up field 3' }).click();
    await expect(
      field(page, 2).getByLabel('ID', { exact: true }).inputValue(),
    ).resolves.toBe('message');
    await expect(
      field(page, 2).getByLabel('Required').isChecked(),
    ).resolves.toBe(true);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(
      page.getByRole('status').first().textContent(),
    ).resolves.toMatch(/Changes saved/);

    const after = await request(`${t.url}/api/submit/${formId}`, {
      json: { name: 'No Message', email: 'n@example.org' },
    });
    expect(after.status).toBe(400);
    expect(after.body.errors.join(' ')).toMatch(/message/);
    const api = await request(`${t.url}/api/v1/forms/${formId}`, { apiKey });
    expect(api.body.fields.map((f: { id: string }) => f.id)).toEqual([
      'name',
      'message',
      'email',
    ]);

    // A bad id is refused with the API's own message, beside the field.
    await field(page, 1).getByLabel('ID', { exact: true }).fill('_secret');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(
      /Field 1: id/,
    );
    await expect(
      field(page, 1)
        .getByLabel('ID', { exact: true })
        .getAttribute('aria-invalid'),
    ).resolves.toBe('true');
    await page.goto(`${detailUrl}/settings`);
  });

  it('turns domain verification on and verifies a domain through DNS', async () => {
    await page
      .getByLabel('Only accept submissions from verified domains')
      .check();
    await page
      .getByRole('button', { name: 'Save verification setting' })
      .click();
    await expect(page.getByRole('note').first().textContent()).resolves.toMatch(
      /no domain is verified/,
    );
    const refused = await request(`${t.url}/api/submit/${formId}`, {
      headers: { origin: 'https://www.example.com' },
      json: { name: 'A', email: 'a@example.org', message: 'm' },
    });
    expect(refused.status).toBe(403);

    await page.getByLabel('Add a domain').fill('Example.com');
    await page.getByRole('button', { name: 'Add domain' }).click();
    await expect(page.getByText('Pending').isVisible()).resolves.toBe(true);
    const txt = await page.getByLabel('Value').inputValue();
    expect(txt).toMatch(/^formgate-verification=[0-9a-f]+$/);

    // Not published yet: the result says so, the domain stays pending.
    await page.getByRole('button', { name: 'Verify example.com' }).click();
    await expect(
      page.getByRole('status').first().textContent(),
    ).resolves.toMatch(/not found yet/);

    dns.setTxt('example.com', [txt]);
    await page.getByRole('button', { name: 'Verify example.com' }).click();
    await expect(
      page.getByRole('status').first().textContent(),
    ).resolves.toMatch(/Domain verified/);
    await expect(
      page.getByText('Verified', { exact: true }).isVisible(),
    ).resolves.toBe(true);
    await screenshot(page, 'form-settings');

    const allowed = await request(`${t.url}/api/submit/${formId}`, {
      headers: { origin: 'https://www.example.com' },
      json: { name: 'A', email: 'a@example.org', message: 'm' },
    });
    expect(allowed.status).toBe(200);
    const stranger = await request(`${t.url}/api/submit/${formId}`, {
      headers: { origin: 'https://evil.example.net' },
      json: { name: 'A', email: 'a@example.org', message: 'm' },
    });
    expect(stranger.status).toBe(403);
  });

  it('regenerates the API key after an explicit confirmation', async () => {
    await page.getByRole('link', { name: 'Regenerate API key' }).click();
    await expectHeading(page, 'Regenerate API key');
    await expect(page.getByRole('note').textContent()).resolves.toMatch(
      /stops working at once/,
    );
    await screenshot(page, 'regenerate-key');
    await page.getByRole('button', { name: 'Regenerate key now' }).click();
    await expectHeading(page, 'Contact');
    const newKey = await page
      .getByLabel('API key', { exact: true })
      .inputValue();
    expect(newKey).toMatch(/^fgk_/);
    expect(newKey).not.toBe(apiKey);

    const old = await request(`${t.url}/api/v1/forms/${formId}`, { apiKey });
    expect(old.status).toBe(403);
    const fresh = await request(`${t.url}/api/v1/forms/${formId}`, {
      apiKey: newKey,
    });
    expect(fresh.status).toBe(200);
    apiKey = newKey;
  });

  it('creates an account key shown once, then revokes it', async () => {
    await page.getByRole('link', { name: 'Account' }).click();
    await expectHeading(page, 'Account');
    await page.getByLabel('New key name').fill('CRM sync');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = await page.getByLabel('New account API key').inputValue();
    expect(key).toMatch(/^fga_/);
    await screenshot(page, 'account');
    const listed = await request(`${t.url}/api/v1/forms`, { apiKey: key });
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((f: { id: string }) => f.id)).toEqual([formId]);

    // Reloading the page never shows the key again.
    await page.goto(`${t.url}/dashboard/account`);
    await expect(page.content()).resolves.not.toContain(key);
    await expect(
      page.getByRole('row', { name: /CRM sync/ }).textContent(),
    ).resolves.toContain(key.slice(0, 12));

    await page.getByRole('button', { name: 'Revoke CRM sync' }).click();
    await expect(
      page.getByRole('status').first().textContent(),
    ).resolves.toMatch(/revoked/);
    const revoked = await request(`${t.url}/api/v1/forms`, { apiKey: key });
    expect(revoked.status).toBe(403);
  });

  it('deletes the form only after the owner types its name', async () => {
    await page.goto(`${detailUrl}/settings`);
    await page.getByRole('link', { name: 'Delete form' }).click();
    await expectHeading(page, 'Delete form “Contact”');
    const confirm = page.getByLabel('Type the form name, Contact, to confirm');
    await confirm.fill('Contact');
    await screenshot(page, 'delete-form');
    await page.getByRole('button', { name: 'Delete this form' }).click();
    await expectHeading(page, 'Forms');
    await expect(
      page.getByRole('status').first().textContent(),
    ).resolves.toMatch(/deleted/);
    const gone = await request(`${t.url}/api/submit/${formId}`, {
      json: { name: 'A' },
    });
    expect(gone.status).toBe(404);
    const key = await request(`${t.url}/api/v1/forms/${formId}`, { apiKey });
    expect(key.status).toBe(403);
  });

  it('shows the forms list with counts and last submission', async () => {
    const created = await request(`${t.url}/api/v1/forms`, {
      apiKey,
      json: { name: 'Never used' },
    });
    // The deleted form's key is gone with it.
    expect(created.status).toBe(403);
    await page.getByRole('link', { name: 'New form' }).first().click();
    await page.getByLabel('Form name').fill('Newsletter');
    await fillField(page, 1, {
      id: 'email',
      label: 'Email',
      type: 'email',
      required: true,
    });
    await page.getByRole('button', { name: 'Create form' }).click();
    const id = await page.getByLabel('Form ID').inputValue();
    for (const email of ['a@example.org', 'b@example.org']) {
      const sent = await request(`${t.url}/api/submit/${id}`, {
        json: { email },
      });
      expect(sent.status).toBe(200);
    }
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Forms' })
      .click();
    const row = page.getByRole('row', { name: /Newsletter/ });
    await expect(row.textContent()).resolves.toMatch(
      /Newsletter.*2.*just now/s,
    );
    await expect(row.textContent()).resolves.toContain(id);
    await screenshot(page, 'forms-list');
  });

  it('refuses a dashboard post without its CSRF token', async () => {
    const response = await page.request.post(`${t.url}/dashboard/forms/new`, {
      form: { name: 'Forged', op: 'save' },
      maxRedirects: 0,
    });
    expect(response.status()).toBe(403);
    expect(await response.text()).toContain('Request refused');
    const list = await request(`${t.url}/api/v1/forms`, { apiKey });
    expect(list.status).toBe(403);
    await page.goto(`${t.url}/dashboard/forms`);
    await expect(
      page.getByRole('row', { name: /Forged/ }).count(),
    ).resolves.toBe(0);
  });

  it('serves every dashboard page without Content-Security-Policy violations', () => {
    expect(cspViolations).toEqual([]);
  });

  it('keeps the Swagger UI working under its own policy', async () => {
    const docs = await context.newPage();
    await docs.goto(`${t.url}/docs`);
    await docs
      .getByRole('heading', { name: /Formgate API/ })
      .first()
      .waitFor();
    await expect(docs.locator('.opblock').count()).resolves.toBeGreaterThan(3);
    await docs.close();
  });

  it('logs out, and the old session cookie stops working', async () => {
    const [session] = (await context.cookies()).filter(
      (cookie) => cookie.name === 'dashboard_session',
    );
    expect(session).toMatchObject({
      httpOnly: true,
      sameSite: 'Lax',
      path: '/dashboard',
    });
    await page.getByRole('button', { name: 'Log out' }).click();
    await expectHeading(page, 'Log in to Formgate');
    await expect(page.getByRole('status').textContent()).resolves.toMatch(
      /logged out/,
    );

    // Put the copied cookie back: the server has forgotten it.
    await context.addCookies([{ ...session }]);
    await page.goto(`${t.url}/dashboard/forms`);
    await expectHeading(page, 'Log in to Formgate');
    await screenshot(page, 'login');
  });

  it('answers a quick retry after repeated failed logins with 429 and a page saying to wait', async () => {
    await page.goto(`${t.url}/dashboard/login`);
    // Three failures for one email are free; the fourth makes this client wait 4 s
    // before its next try for that email (8 s after the fifth, and so on).
    for (let attempt = 1; attempt <= 4; attempt++) {
      await page.getByLabel('Email').fill('ada@example.com');
      await page.getByLabel('Password').fill(`wrong-password-${attempt}`);
      const [response] = await Promise.all([
        page.waitForResponse(
          (r) =>
            r.url().endsWith('/dashboard/login') &&
            r.request().method() === 'POST',
        ),
        page.getByRole('button', { name: 'Log in' }).click(),
      ]);
      expect(response.status()).toBe(401);
    }
    await page.getByLabel('Email').fill('ada@example.com');
    await page.getByLabel('Password').fill(PASSWORD);
    const [response] = await Promise.all([
      page.waitForResponse(
        (r) =>
          r.url().endsWith('/dashboard/login') &&
          r.request().method() === 'POST',
      ),
      page.getByRole('button', { name: 'Log in' }).click(),
    ]);
    expect(response.status()).toBe(429);
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(
      /Too many attempts\. Please wait [1-4] seconds?/,
    );
    await screenshot(page, 'login-rate-limited');
  });
});

describeBrowser('dashboard without JavaScript (browser)', () => {
  let t: TestApp;
  let browser: Browser;

  beforeAll(async () => {
    t = await createTestApp();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('lets an owner sign up, build a form and reveal its key with scripts off', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${t.url}/dashboard/signup`);
    await page.getByLabel('Email').fill('nojs@example.com');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('link', { name: 'New form' }).first().click();
    await page.getByLabel('Form name').fill('Plain');
    await fillField(page, 1, { id: 'topic', label: 'Topic', type: 'select' });
    await field(page, 1).getByLabel('Options').fill('Sales\nSupport');
    await page.getByRole('button', { name: '+ Add field' }).click();
    await fillField(page, 2, { id: 'note', label: 'Note' });
    await page.getByRole('button', { name: 'Remove field 1' }).click();
    await expect(
      page.getByRole('group', { name: 'Field 2', exact: true }).count(),
    ).resolves.toBe(0);
    await expect(
      field(page, 1).getByLabel('ID', { exact: true }).inputValue(),
    ).resolves.toBe('note');
    await page.getByRole('button', { name: 'Create form' }).click();
    await expectHeading(page, 'Plain');
    // Copy buttons need a script, so they stay hidden; the key still opens.
    await expect(
      page.getByRole('button', { name: /^Copy/ }).count(),
    ).resolves.toBe(0);
    await page.getByText('Show API key').click();
    await expect(
      page.getByLabel('API key', { exact: true }).inputValue(),
    ).resolves.toMatch(/^fgk_/);
    await context.close();
  });
});

function field(page: Page, n: number) {
  return page.getByRole('group', { name: `Field ${n}`, exact: true });
}

async function fillField(
  page: Page,
  n: number,
  spec: { id: string; label: string; type?: string; required?: boolean },
): Promise<void> {
  const row = field(page, n);
  await row.getByLabel('ID', { exact: true }).fill(spec.id);
  await row.getByLabel('Label', { exact: true }).fill(spec.label);
  if (spec.type) await row.getByLabel('Type').selectOption(spec.type);
  if (spec.required) await row.getByLabel('Required').check();
}

async function expectHeading(page: Page, name: string): Promise<void> {
  await page.getByRole('heading', { level: 1, name, exact: true }).waitFor();
}
