// Changing a form in the system Chromium: its fields (the submit validation follows), domain
// verification through DNS, a new API key, an account key, deletion after typing the name,
// and CSRF on dashboard posts — driven by role and label only.
import type { Page } from 'playwright-core';
import { AccountsService } from '../../src/accounts/accounts.service.js';
import { createForm } from '../factories/forms.js';
import { describeBrowser } from '../support/browser.js';
import {
  expectHeading,
  field,
  fillField,
  openDashboardBrowser,
  screenshot,
  signUpInBrowser,
  type DashboardBrowser,
} from '../support/dashboard-browser.js';
import { startDnsServer, type TestDnsServer } from '../support/dns-server.js';
import { request } from '../support/http.js';
import type { TestApp } from '../support/test-app.js';

describeBrowser('dashboard: changing a form (browser)', () => {
  let dashboard: DashboardBrowser;
  let t: TestApp;
  let dns: TestDnsServer;
  let page: Page;

  let formId = '';
  let apiKey = '';
  let detailUrl = '';

  beforeAll(async () => {
    dns = await startDnsServer();
    dashboard = await openDashboardBrowser({
      env: { DNS_SERVERS: dns.address, SUBMIT_RATE_LIMIT: '1000' },
    });
    ({ t, page } = dashboard);
    // The owner's Contact form (name, email, message), as the first-form journey builds it.
    await signUpInBrowser(page, t.url, 'ada@example.com');
    const owner = await t.app
      .get(AccountsService)
      .findByEmail('ada@example.com');
    const created = await createForm(t, owner!.id, { name: 'Contact' });
    formId = created.form.id;
    apiKey = created.apiKey;
    detailUrl = `${t.url}/dashboard/forms/${formId}`;
    await page.goto(detailUrl);
    await expectHeading(page, 'Contact');
  });

  afterAll(async () => {
    await dashboard?.close();
    await dns?.close();
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
    // The page's warning (the autoresponse section has a note of its own about CAPTCHAs).
    await expect(
      page
        .getByRole('note')
        .filter({ hasText: /no domain is verified/ })
        .isVisible(),
    ).resolves.toBe(true);
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
    expect(dashboard.cspViolations).toEqual([]);
  });
});
