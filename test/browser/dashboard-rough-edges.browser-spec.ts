// What a newcomer tripped over in the dashboard, in the system Chromium: deleting a webhook
// and rotating its secret ask first (with and without JavaScript), an uploaded file is a
// name and a download link in the list and in the CSV, a search lands on its results and
// their count, a "saved" notice is on screen where the page lands, the endpoint hint names
// multipart for a form with files, and the settings page has a section menu and shows the
// file settings only on file rows — on a 360 px phone without sideways scrolling too.
import { readFile } from 'node:fs/promises';
import type { BrowserContext, Page } from 'playwright-core';
import { ownedAccountId } from '../support/stored-rows.js';
import { FormsService } from '../../src/forms/forms.service.js';
import { Webhook } from '../../src/notifications/webhooks/webhook.entity.js';
import { describeBrowser } from '../support/browser.js';
import { parseCsv } from '../support/csv.js';
import {
  expectHeading,
  field,
  openDashboardBrowser,
  screenshot,
  signUpInBrowser,
  type DashboardBrowser,
} from '../support/dashboard-browser.js';
import { multipart, MULTIPART_TYPE, PDF } from '../support/files.js';
import { request } from '../support/http.js';

/** Whether the element is within the page's visible area as it is scrolled now. */
async function inViewport(page: Page, selector: string): Promise<boolean> {
  return page.locator(selector).evaluate((el) => {
    const box = el.getBoundingClientRect();
    return (
      box.height > 0 &&
      box.top >= 0 &&
      box.bottom <= document.documentElement.clientHeight
    );
  });
}

/** Nothing is wider than the phone (a table scrolls within its own frame). */
async function noSidewaysScroll(page: Page): Promise<void> {
  const widths = await page.evaluate(() => {
    const viewport = document.documentElement.clientWidth;
    const wide = [...document.querySelectorAll('body *')].filter(
      (el) =>
        el.closest('.table-wrap') === null &&
        el.getBoundingClientRect().right > viewport + 1,
    );
    return {
      page: document.documentElement.scrollWidth,
      viewport,
      wide: wide
        .slice(0, 5)
        .map((el) => `${el.tagName.toLowerCase()}.${el.className}`),
    };
  });
  expect(widths.wide, page.url()).toEqual([]);
  expect(widths.page, page.url()).toBeLessThanOrEqual(widths.viewport);
}

describeBrowser('dashboard: a newcomer’s rough edges (browser)', () => {
  let d: DashboardBrowser;
  let page: Page;
  let noScripts: BrowserContext;
  let filesForm = '';
  let plainForm = '';
  let plainKey = '';

  beforeAll(async () => {
    d = await openDashboardBrowser({
      env: { WEBHOOK_ALLOW_PRIVATE: 'true', SUBMIT_RATE_LIMIT: '1000' },
    });
    page = d.page;
    const email = 'newcomer@example.com';
    await signUpInBrowser(page, d.t.url, email);
    const account = { id: await ownedAccountId(d.t.dataSource, email) };
    const forms = d.t.app.get(FormsService);
    const jobs = await forms.create(account.id, {
      name: 'Jobs',
      fields: [
        { id: 'name', type: 'text', label: 'Name' },
        { id: 'cv', type: 'file', label: 'CV', accept: ['application/pdf'] },
      ],
    });
    filesForm = jobs.form.id;
    const contact = await forms.create(account.id, {
      name: 'Contact',
      fields: [
        { id: 'name', type: 'text', label: 'Name' },
        { id: 'email', type: 'email', label: 'Email' },
      ],
    });
    plainForm = contact.form.id;
    plainKey = contact.apiKey;
    const posted = await request(`${d.t.url}/api/submit/${filesForm}`, {
      body: multipart([
        { name: 'name', value: 'Ada' },
        { name: 'cv', filename: 'cv.pdf', bytes: PDF },
      ]),
      headers: { 'content-type': MULTIPART_TYPE },
    });
    expect(posted.status).toBe(200);
    // Enough submissions that the list sits below the fold of the overview.
    for (let i = 0; i < 30; i++) {
      const sent = await request(`${d.t.url}/api/submit/${plainForm}`, {
        json: {
          name: i === 7 ? 'Grace Hopper' : `Person ${i}`,
          email: 'p@example.org',
        },
      });
      expect(sent.status).toBe(200);
    }
    noScripts = await d.browser.newContext({
      javaScriptEnabled: false,
      viewport: { width: 1280, height: 900 },
      storageState: await d.context.storageState(),
    });
  });
  afterAll(async () => {
    await noScripts?.close();
    await d?.close();
  });

  it('asks before deleting a webhook and before rotating its secret, also without JavaScript', async () => {
    const webhooks = d.t.dataSource.getRepository(Webhook);
    for (const url of ['http://127.0.0.1:9/one', 'http://127.0.0.1:9/two']) {
      const added = await request(
        `${d.t.url}/api/v1/forms/${plainForm}/webhooks`,
        {
          apiKey: plainKey,
          json: { url },
        },
      );
      expect(added.status).toBe(201);
    }
    await page.goto(`${d.t.url}/dashboard/forms/${plainForm}/notifications`);
    await page
      .getByRole('link', { name: 'Delete… http://127.0.0.1:9/one' })
      .click();
    await expectHeading(page, 'Delete webhook');
    await expect(page.getByRole('note').textContent()).resolves.toContain(
      'This deletes the webhook to http://127.0.0.1:9/one',
    );
    await screenshot(page, 'webhook-delete-confirm');
    // Cancel goes back and deletes nothing.
    await page.getByRole('link', { name: 'Cancel' }).click();
    await expectHeading(page, 'Notifications');
    expect(await webhooks.countBy({ formId: plainForm })).toBe(2);

    await page
      .getByRole('link', { name: 'Delete… http://127.0.0.1:9/one' })
      .click();
    await page.getByRole('button', { name: 'Delete webhook' }).click();
    await expectHeading(page, 'Notifications');
    expect(await webhooks.countBy({ formId: plainForm })).toBe(1);
    // The notice is in the webhooks section, on screen where the page landed.
    await expect(page.locator('#webhooks-notice').textContent()).resolves.toBe(
      'Webhook deleted.',
    );
    expect(await inViewport(page, '#webhooks-notice')).toBe(true);

    // Rotating, with scripts off: a confirmation page, then the new secret on screen.
    const plain = await noScripts.newPage();
    await plain.goto(`${d.t.url}/dashboard/forms/${plainForm}/notifications`);
    await plain
      .getByRole('link', { name: 'Rotate secret… of http://127.0.0.1:9/two' })
      .click();
    await expectHeading(plain, 'Rotate signing secret');
    await plain.getByRole('button', { name: 'Rotate secret now' }).click();
    await expectHeading(plain, 'Notifications');
    const secret = plain.getByLabel('Signing secret');
    await expect(secret.inputValue()).resolves.toMatch(/^whsec_/);
    expect(await inViewport(plain, '#webhooks-notice')).toBe(true);
    await plain.close();
  });

  it('shows an uploaded file as a download link in the list and a name with a link in the CSV', async () => {
    await page.goto(`${d.t.url}/dashboard/forms/${filesForm}`);
    const list = page.getByRole('table', { name: /Submissions, newest first/ });
    const link = list.getByRole('link', { name: 'cv.pdf' });
    await expect(list.textContent()).resolves.not.toContain('sha256');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      link.click(),
    ]);
    expect(download.suggestedFilename()).toBe('cv.pdf');
    await expect(readFile(await download.path(), 'utf8')).resolves.toBe(
      PDF.toString(),
    );

    const [csvDownload] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Export CSV' }).click(),
    ]);
    const [, row] = parseCsv(await readFile(await csvDownload.path(), 'utf8'));
    const token = /^cv\.pdf \(http:\/\/localhost:3000\/files\/([^)]+)\)$/.exec(
      row[3],
    )?.[1];
    expect(token, row[3]).toBeDefined();
    // The link opens in a browser that is not signed in: no key, no session.
    const stranger = await d.browser.newContext({ acceptDownloads: true });
    const other = await stranger.newPage();
    const [opened] = await Promise.all([
      other.waitForEvent('download'),
      other.goto(`${d.t.url}/files/${token}`).catch(() => null),
    ]);
    await expect(readFile(await opened.path(), 'utf8')).resolves.toBe(
      PDF.toString(),
    );
    await stranger.close();
  });

  it('names multipart in the endpoint hint of a form with file fields', async () => {
    await page.goto(`${d.t.url}/dashboard/forms/${filesForm}/setup`);
    const hint = page.getByTestId('endpoint-hint');
    await expect(hint.textContent()).resolves.toContain(
      'POST · multipart/form-data',
    );
    await expect(page.getByLabel('HTML form').inputValue()).resolves.toContain(
      'enctype="multipart/form-data"',
    );
    await expect(
      page.getByLabel('JavaScript (fetch)').inputValue(),
    ).resolves.toContain('FormData sends them as multipart/form-data');
    await page.goto(`${d.t.url}/dashboard/forms/${plainForm}/setup`);
    await expect(page.getByTestId('endpoint-hint').textContent()).resolves.toBe(
      'POST · JSON or form-encoded · no key needed',
    );
  });

  it('lands a search on its results and their count, above the chart', async () => {
    await page.goto(`${d.t.url}/dashboard/forms/${plainForm}`);
    await page.getByRole('searchbox', { name: 'Search' }).fill('hopper');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/\?q=hopper/);
    const count = page.getByTestId('results-count');
    await expect(count.textContent()).resolves.toBe(
      '1 submission matches. Showing new submissions containing “hopper”, newest first. Search every status',
    );
    expect(await inViewport(page, '[data-testid="results-count"]')).toBe(true);
    const rows = page
      .getByRole('table', { name: /Submissions, newest first/ })
      .getByRole('row');
    await expect(rows.count()).resolves.toBe(2);
    const [list, chart] = await Promise.all([
      page.locator('#submissions').boundingBox(),
      page
        .getByRole('img', { name: 'Submissions per day, last 30 days' })
        .boundingBox(),
    ]);
    expect(list!.y).toBeLessThan(chart!.y);
    await screenshot(page, 'search-results-first');
  });

  it('shows each "saved" notice on screen where the settings page lands', async () => {
    const settings = `${d.t.url}/dashboard/forms/${filesForm}/settings`;
    await page.goto(settings);
    await page.getByLabel('Keep submissions for (days, optional)').fill('90');
    await page.getByRole('button', { name: 'Save retention' }).click();
    await page.waitForURL(/done=retention-saved#retention$/);
    await expect(
      page.locator('#retention-notice').textContent(),
    ).resolves.toMatch(/^Retention saved\./);
    expect(await inViewport(page, '#retention-notice')).toBe(true);

    await page.getByLabel('Most links in a submission').fill('3');
    await page.getByRole('button', { name: 'Save spam protection' }).click();
    await page.waitForURL(/done=spam-saved#spam$/);
    expect(await inViewport(page, '#spam-notice')).toBe(true);

    await page
      .getByLabel('Redirect address (optional)')
      .fill('https://www.example.com/thanks');
    await page
      .getByRole('button', { name: 'Save what visitors see after sending' })
      .click();
    await page.waitForURL(/done=after-submit-saved#after-submit$/);
    expect(await inViewport(page, '#after-submit-notice')).toBe(true);
    await screenshot(page, 'settings-notice-in-view');
  });

  it('has a section menu and shows the file settings only for file fields', async () => {
    const settings = `${d.t.url}/dashboard/forms/${filesForm}/settings`;
    await page.goto(settings);
    const menu = page.getByRole('navigation', { name: 'Settings sections' });
    await menu.getByRole('link', { name: 'Domains' }).click();
    await page.waitForURL(/#domains$/);
    expect(await inViewport(page, '#domains-title')).toBe(true);

    // A section edited and not saved says so, beside its button and in the menu.
    await page.getByLabel('Keep submissions for (days, optional)').fill('45');
    await page.locator('#retention').getByText('Unsaved changes').waitFor();
    await expect(
      menu
        .getByRole('link', { name: 'Retention' })
        .getAttribute('data-unsaved'),
    ).resolves.toBe('');
    await expect(
      page.locator('#general').getByText('Unsaved changes').count(),
    ).resolves.toBe(0);

    // Row 1 is text, row 2 a file: only the file row shows its file settings.
    await expect(
      field(page, 1).getByLabel('Largest file (bytes)').isVisible(),
    ).resolves.toBe(false);
    await expect(
      field(page, 2).getByLabel('Largest file (bytes)').isVisible(),
    ).resolves.toBe(true);
    await expect(
      field(page, 2).getByLabel('Accepted formats').inputValue(),
    ).resolves.toBe('application/pdf');
    // Choosing "File upload" shows them at once; another type hides them again.
    await field(page, 1).getByLabel('Type').selectOption('file');
    await expect(
      field(page, 1).getByLabel('Files at most').isVisible(),
    ).resolves.toBe(true);
    await field(page, 1).getByLabel('Type').selectOption('text');
    await expect(
      field(page, 1).getByLabel('Files at most').isVisible(),
    ).resolves.toBe(false);

    // Without JavaScript the page shows them by each row's saved type.
    const plain = await noScripts.newPage();
    await plain.goto(settings);
    await expect(
      field(plain, 1).getByLabel('Largest file (bytes)').isVisible(),
    ).resolves.toBe(false);
    await expect(
      field(plain, 2).getByLabel('Largest file (bytes)').isVisible(),
    ).resolves.toBe(true);
    await plain
      .getByRole('navigation', { name: 'Settings sections' })
      .getByRole('link', { name: 'Retention' })
      .click();
    expect(await inViewport(plain, '#retention-title')).toBe(true);
    await plain.close();

    // A phone: the menu wraps, nothing scrolls sideways.
    await page.setViewportSize({ width: 360, height: 780 });
    try {
      await page.goto(settings);
      await noSidewaysScroll(page);
      await screenshot(page, 'settings-phone');
      await page.goto(`${d.t.url}/dashboard/forms/${filesForm}?q=ada`);
      await noSidewaysScroll(page);
      const phoneHook = await request(
        `${d.t.url}/api/v1/forms/${plainForm}/webhooks`,
        {
          apiKey: plainKey,
          json: { url: 'http://127.0.0.1:9/a-rather-long-path/for-a-phone' },
        },
      );
      expect(phoneHook.status).toBe(201);
      await page.goto(
        `${d.t.url}/dashboard/forms/${plainForm}/notifications/webhooks/${phoneHook.body.id}/delete`,
      );
      await noSidewaysScroll(page);
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });

  it('opens a guide the form page mentions through its link', async () => {
    await page.goto(`${d.t.url}/dashboard/forms/${plainForm}/setup`);
    await page.getByRole('link', { name: 'docs/formspree.md' }).click();
    await page.waitForURL(/\/dashboard\/docs\/formspree\.md$/);
    await expect(page.locator('body').innerText()).resolves.toMatch(/^# /);
  });

  it('serves every page without Content-Security-Policy violations', () => {
    expect(d.cspViolations).toEqual([]);
  });
});
