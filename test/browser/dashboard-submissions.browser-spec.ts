// Working with a form's submissions in the dashboard, in the system Chromium: the activity
// chart and honeypot count, search and date range, one submission's page, deleting one and
// deleting a range (each after a confirmation), and the CSV for Excel. Everything but the
// first look runs with JavaScript off: none of it needs a script.
import { readFile } from 'node:fs/promises';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { AccountsService } from '../../src/accounts/accounts.service.js';
import { Form } from '../../src/forms/form.entity.js';
import { Submission } from '../../src/submissions/submission.entity.js';
import { createForm } from '../factories/forms.js';
import { insertSubmissions } from '../factories/submissions.js';
import { describeBrowser, launchBrowser } from '../support/browser.js';
import { screenshot } from '../support/dashboard-browser.js';
import { request } from '../support/http.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const PASSWORD = 'blue-harbour-1987';
const XSS = '<img src=x onerror="window.__xss=1">';
const DAY = 86_400_000;
const byText = (a: string, b: string) => a.localeCompare(b);

/** Midday UTC, `daysAgo` days before today. */
function daysAgo(daysAgo: number, minutes = 0): Date {
  const now = new Date();
  return new Date(
    Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), 12) -
      daysAgo * DAY +
      minutes * 60_000,
  );
}

function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

describeBrowser('dashboard: submissions (browser)', () => {
  let t: TestApp;
  let browser: Browser;
  let withScripts: BrowserContext;
  let withoutScripts: BrowserContext;
  let page: Page;
  let formId = '';
  let formUrl = '';
  let apiKey = '';
  const cspViolations: string[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    browser = await launchBrowser();
    withScripts = await browser.newContext({
      viewport: { width: 1280, height: 900 },
    });
    const first = await withScripts.newPage();
    first.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) {
        cspViolations.push(`${first.url()}: ${message.text()}`);
      }
    });
    await first.goto(`${t.url}/dashboard/signup`);
    await first.getByLabel('Email').fill('grace@example.com');
    await first.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await first.getByLabel('Confirm password').fill(PASSWORD);
    await first.getByRole('button', { name: 'Create account' }).click();
    await first.getByRole('heading', { level: 1, name: 'Forms' }).waitFor();
    page = first;

    const owner = await t.app
      .get(AccountsService)
      .findByEmail('grace@example.com');
    const created = await createForm(t, owner!.id, { name: 'Contact' });
    formId = created.form.id;
    apiKey = created.apiKey;
    formUrl = `${t.url}/dashboard/forms/${formId}`;
    await insertSubmissions(t, formId, [
      // Three today, two 3 days ago, one 10 days ago, one 40 days ago (outside the chart).
      {
        createdAt: daysAgo(0, -30),
        data: {
          name: 'Ada Lovelace',
          email: 'ada@example.org',
          message: 'Analytical engines',
        },
        ip: '203.0.113.7',
        userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0',
        origin: 'https://www.example.com',
      },
      {
        createdAt: daysAgo(0, -20),
        data: {
          name: 'Zoë Ørsted',
          email: 'zoe@example.org',
          message: 'Grüße aus Köln – 東京',
        },
      },
      {
        createdAt: daysAgo(0, -10),
        data: { name: XSS, email: 'mallory@example.org', message: XSS },
      },
      {
        createdAt: daysAgo(3),
        data: { name: 'Grace Hopper', email: 'grace@example.org' },
      },
      {
        createdAt: daysAgo(3, 5),
        data: { name: 'Alan Turing', email: 'alan@example.org' },
      },
      {
        createdAt: daysAgo(10),
        data: { name: 'Edsger Dijkstra', email: 'ed@example.org' },
      },
      {
        createdAt: daysAgo(40),
        data: { name: 'Old Timer', email: 'old@example.org' },
      },
    ]);
    await t.dataSource
      .getRepository(Form)
      .update({ id: formId }, { honeypotHits: 12 });

    withoutScripts = await browser.newContext({
      javaScriptEnabled: false,
      acceptDownloads: true,
      viewport: { width: 1280, height: 900 },
      storageState: await withScripts.storageState(),
    });
  });

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('shows the last 30 days as an accessible chart, and the honeypot count', async () => {
    await page.goto(formUrl);
    const chart = page.getByRole('img', {
      name: 'Submissions per day, last 30 days',
    });
    await expect(chart.isVisible()).resolves.toBe(true);
    const description = await chart.locator('desc').textContent();
    expect(description).toMatch(
      /^6 submissions from \d+ \w{3} \d{4} to \d+ \w{3} \d{4} \(UTC\); the busiest day was \d+ \w{3} \d{4} with 3 submissions\.$/,
    );
    // One bar per day that had submissions, its height following its count.
    const bars = chart.locator('rect');
    await expect(bars.count()).resolves.toBe(3);
    const counts = await bars.evaluateAll((rects) =>
      rects.map((r) => [
        r.getAttribute('data-day'),
        Number(r.getAttribute('data-count')),
        Number(r.getAttribute('height')),
      ]),
    );
    expect(counts.map(([day, count]) => [day, count])).toEqual([
      [isoDay(daysAgo(10)), 1],
      [isoDay(daysAgo(3)), 2],
      [isoDay(daysAgo(0)), 3],
    ]);
    const heights = counts.map(([, , height]) => height as number);
    expect(heights[0]).toBeLessThan(heights[1]);
    expect(heights[1]).toBeLessThan(heights[2]);
    await expect(bars.last().locator('title').textContent()).resolves.toMatch(
      /: 3 submissions$/,
    );

    await expect(
      page.getByText('Spam stopped by the honeypot').isVisible(),
    ).resolves.toBe(true);
    const figures = page.locator('dl.stats');
    await expect(figures.textContent()).resolves.toMatch(
      /Last 30 days\s*6\s*All time\s*7\s*Spam stopped by the honeypot\s*12/,
    );

    // The same numbers as a table, for screen readers and exact values.
    await page.getByText('Show as a table').click();
    const table = page.getByRole('table', { name: /Submissions per day/ });
    await expect(table.getByRole('row').count()).resolves.toBe(31);
    await expect(table.getByRole('row').nth(1).textContent()).resolves.toMatch(
      /3$/,
    );
    await screenshot(page, 'form-activity');
    expect(cspViolations).toEqual([]);
  });

  it('searches the values and narrows to a date range, without JavaScript', async () => {
    const p = await withoutScripts.newPage();
    await p.goto(formUrl);
    await p.getByRole('searchbox', { name: 'Search' }).fill('LOVELACE');
    await p.getByRole('button', { name: 'Search' }).click();
    await p.waitForURL(/\?q=LOVELACE/);
    const rows = p
      .getByRole('table', { name: /Submissions, newest first/ })
      .getByRole('row');
    await expect(rows.count()).resolves.toBe(2);
    await expect(rows.nth(1).textContent()).resolves.toContain('Ada Lovelace');
    await expect(p.getByRole('status').textContent()).resolves.toContain(
      '1 submission matches. Showing new submissions containing “LOVELACE”',
    );
    await expect(
      p.getByRole('searchbox', { name: 'Search' }).inputValue(),
    ).resolves.toBe('LOVELACE');

    // A search nothing matches says so, with a way back.
    await p.getByRole('searchbox', { name: 'Search' }).fill('no such text');
    await p.getByRole('button', { name: 'Search' }).click();
    await expect(
      p.getByRole('heading', { name: 'No submissions match' }).isVisible(),
    ).resolves.toBe(true);
    await p.getByRole('link', { name: 'Show all submissions' }).click();
    await expect(rows.count()).resolves.toBe(8);

    // Both ends of the range are whole days, included.
    await p.getByLabel('From', { exact: true }).fill(isoDay(daysAgo(10)));
    await p.getByLabel('To', { exact: true }).fill(isoDay(daysAgo(3)));
    await p.getByRole('button', { name: 'Search' }).click();
    await expect(rows.count()).resolves.toBe(4);
    const names = await rows.evaluateAll((trs) =>
      trs.slice(1).map((tr) => tr.children[1].textContent?.trim()),
    );
    expect(names).toEqual(['Alan Turing', 'Grace Hopper', 'Edsger Dijkstra']);
    await screenshot(p, 'submissions-filtered');

    // The export follows the list.
    const [download] = await Promise.all([
      p.waitForEvent('download'),
      p.getByRole('link', { name: 'Export CSV' }).click(),
    ]);
    const csv = await readFile(await download.path(), 'utf8');
    expect(csv.trim().split('\r\n')).toHaveLength(4);

    // A bad range is explained beside the field, and lists nothing.
    await p.getByLabel('From', { exact: true }).fill(isoDay(daysAgo(1)));
    await p.getByLabel('To', { exact: true }).fill(isoDay(daysAgo(5)));
    const [response] = await Promise.all([
      p.waitForResponse((r) => r.url().includes('from=')),
      p.getByRole('button', { name: 'Search' }).click(),
    ]);
    expect(response.status()).toBe(400);
    await expect(p.getByRole('alert').textContent()).resolves.toContain(
      'From must be on or before To',
    );
    await expect(
      p.getByLabel('From', { exact: true }).getAttribute('aria-invalid'),
    ).resolves.toBe('true');
    await p.close();
  });

  it('opens one submission with every field, its time, IP, user agent and origin', async () => {
    const p = await withoutScripts.newPage();
    await p.goto(formUrl);
    const rows = p
      .getByRole('table', { name: /Submissions, newest first/ })
      .getByRole('row');
    await rows.filter({ hasText: 'Ada Lovelace' }).getByRole('link').click();
    await p.getByRole('heading', { level: 1, name: 'Submission' }).waitFor();
    // Opened from the New tab, its page knows the way back there.
    expect(p.url()).toMatch(
      new RegExp(
        `/dashboard/forms/${formId}/submissions/[0-9A-Z]{26}\\?back=%3Fstatus%3Dnew$`,
      ),
    );
    const values = p.getByRole('region', { name: 'Submitted values' });
    await expect(values.textContent()).resolves.toMatch(
      /Name\s*name\s*Ada Lovelace\s*Email\s*email\s*ada@example\.org\s*Message\s*message\s*Analytical engines/,
    );
    const origin = p.getByRole('region', { name: 'Where it came from' });
    const text = (await origin.textContent()) ?? '';
    expect(text).toContain('203.0.113.7');
    expect(text).toContain('Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0');
    expect(text).toContain('https://www.example.com');
    expect(text).toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/);
    await screenshot(p, 'submission');

    // Hostile values are text on this page too.
    await p.goto(formUrl);
    await rows
      .filter({ hasText: 'mallory@example.org' })
      .getByRole('link')
      .click();
    await expect(p.getByText(XSS).first().isVisible()).resolves.toBe(true);
    await expect(p.locator('main img').count()).resolves.toBe(0);
    await p.close();
  });

  it('deletes one submission after a confirmation step', async () => {
    const p = await withoutScripts.newPage();
    await p.goto(formUrl);
    await p
      .getByRole('table', { name: /Submissions, newest first/ })
      .getByRole('row')
      .filter({ hasText: 'Grace Hopper' })
      .getByRole('link')
      .click();
    const submissionId = new URL(p.url()).pathname.split('/').pop()!;
    await p.getByRole('link', { name: 'Delete submission…' }).click();
    await p
      .getByRole('heading', { level: 1, name: 'Delete this submission?' })
      .waitFor();
    await expect(p.getByRole('note').textContent()).resolves.toMatch(
      /permanently deletes/,
    );
    await screenshot(p, 'submission-delete');
    // Cancel changes nothing.
    await p.getByRole('link', { name: 'Cancel' }).click();
    await p.getByRole('heading', { level: 1, name: 'Submission' }).waitFor();
    await p.getByRole('link', { name: 'Delete submission…' }).click();
    await p.getByRole('button', { name: 'Delete submission' }).click();
    // Back on the tab it was opened from, with the notice.
    await p.waitForURL(`${formUrl}?status=new&done=submission-deleted`);
    await expect(p.getByRole('status').first().textContent()).resolves.toBe(
      'The submission was deleted.',
    );
    await expect(p.getByText('Grace Hopper').count()).resolves.toBe(0);
    const api = await request(
      `${t.url}/api/v1/forms/${formId}/submissions/${submissionId}`,
      { apiKey },
    );
    expect(api.status).toBe(404);
    await p.close();
  });

  it('deletes the submissions of a date range after a confirmation that counts them', async () => {
    const p = await withoutScripts.newPage();
    await p.goto(formUrl);
    await p.getByLabel('From', { exact: true }).fill(isoDay(daysAgo(45)));
    await p.getByLabel('To', { exact: true }).fill(isoDay(daysAgo(3)));
    await p.getByRole('button', { name: 'Search' }).click();
    await p
      .getByRole('link', { name: /^Delete submissions from .+…$/ })
      .click();
    await p
      .getByRole('heading', { level: 1, name: 'Delete submissions' })
      .waitFor();
    await expect(p.getByRole('note').textContent()).resolves.toMatch(
      /permanently deletes the 3 submissions received from \d+ \w{3} \d{4} to \d+ \w{3} \d{4}\./,
    );
    await screenshot(p, 'submissions-delete');
    await p.getByRole('button', { name: 'Delete 3 submissions' }).click();
    await expect(p.getByRole('status').first().textContent()).resolves.toBe(
      'Deleted 3 submissions.',
    );
    await expect(
      p.getByRole('heading', { name: 'No submissions match' }).isVisible(),
    ).resolves.toBe(true);
    const left = await t.dataSource
      .getRepository(Submission)
      .findBy({ formId });
    expect(left.map((s) => String(s.data.name as string)).sort(byText)).toEqual(
      ['Ada Lovelace', XSS, 'Zoë Ørsted'].sort(byText),
    );
    await p.close();
  });

  it('exports a CSV for Excel: UTF-8 with a byte order mark, text intact', async () => {
    const p = await withoutScripts.newPage();
    await p.goto(formUrl);
    const [download] = await Promise.all([
      p.waitForEvent('download'),
      p.getByRole('link', { name: /CSV for Excel/ }).click(),
    ]);
    const bytes = await readFile(await download.path());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.subarray(3).toString('utf8');
    expect(text.split('\r\n')[0]).toBe(
      'id,createdAt,name,email,message,status,assignee,labels',
    );
    expect(text).toContain('Zoë Ørsted,zoe@example.org,Grüße aus Köln – 東京');
    // The plain export stays without it, for programs.
    const [plain] = await Promise.all([
      p.waitForEvent('download'),
      p.getByRole('link', { name: 'Export CSV' }).click(),
    ]);
    expect((await readFile(await plain.path()))[0]).toBe('i'.charCodeAt(0));
    await p.close();
  });
});
