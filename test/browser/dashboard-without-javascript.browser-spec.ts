// The dashboard with scripts off, in the system Chromium: everything an owner needs to start
// works without JavaScript.
import type { Browser } from 'playwright-core';
import { describeBrowser, launchBrowser } from '../support/browser.js';
import {
  BROWSER_PASSWORD as PASSWORD,
  expectHeading,
  field,
  fillField,
} from '../support/dashboard-browser.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

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
