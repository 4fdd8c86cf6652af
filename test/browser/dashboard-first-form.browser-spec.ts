// A new owner's first form, in the system Chromium: sign up, build a form in the fields
// editor, paste its snippets into another site, read the submissions (hostile values as
// text) and export them — driven by role and label only.
import { readFile } from 'node:fs/promises';
import type { BrowserContext, Page } from 'playwright-core';
import { describeBrowser } from '../support/browser.js';
import {
  BROWSER_PASSWORD as PASSWORD,
  expectHeading,
  field,
  fillField,
  openDashboardBrowser,
  screenshot,
  startCustomerSite,
  type CustomerSite,
  type DashboardBrowser,
} from '../support/dashboard-browser.js';
import { request } from '../support/http.js';
import type { TestApp } from '../support/test-app.js';

const XSS = '<img src=x onerror="window.__xss=1">';

describeBrowser('dashboard: a first form (browser)', () => {
  let dashboard: DashboardBrowser;
  let t: TestApp;
  let site: CustomerSite;
  let context: BrowserContext;
  let page: Page;

  let formId = '';
  let apiKey = '';
  let detailUrl = '';

  beforeAll(async () => {
    // The journey submits more than the default 10 per minute from loopback.
    dashboard = await openDashboardBrowser({
      env: { SUBMIT_RATE_LIMIT: '1000' },
    });
    ({ t, context, page } = dashboard);
    site = await startCustomerSite();
  });

  afterAll(async () => {
    await site?.close();
    await dashboard?.close();
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
    expect(lines[0]).toBe(
      'id,createdAt,name,email,message,status,assignee,labels',
    );
    expect(lines).toHaveLength(4);
    expect(csv).toContain(
      'Ada Lovelace,ada@example.org,Hello from the snippet',
    );
  });

  it('serves every dashboard page without Content-Security-Policy violations', () => {
    expect(dashboard.cspViolations).toEqual([]);
  });
});
