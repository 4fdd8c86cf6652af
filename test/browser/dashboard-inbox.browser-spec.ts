// The form page as a team's inbox, in a real browser (DESIGN 20): the page opens on New with
// its count, opening a submission moves it to Open (and its page leads back to the tab),
// assigning someone mails them (a real SMTP server on loopback), closing many at once, a
// label made on the Labels page put on a submission and its chip narrowing the list, a
// search's count in all, the Setup tab holding the snippets, and a phone's width with no
// sideways scroll.
import type { Page } from 'playwright-core';
import { AccountsService } from '../../src/accounts/accounts.service.js';
import type { User } from '../../src/accounts/user.entity.js';
import { FormsService } from '../../src/forms/forms.service.js';
import { createMember } from '../factories/accounts.js';
import { describeBrowser } from '../support/browser.js';
import {
  expectHeading,
  openDashboardBrowser,
  screenshot,
  signUpInBrowser,
  type DashboardBrowser,
} from '../support/dashboard-browser.js';
import { request } from '../support/http.js';
import { TestSmtpServer } from '../support/smtp-server.js';

describeBrowser('dashboard: the inbox (browser)', () => {
  let d: DashboardBrowser;
  let smtp: TestSmtpServer;
  let page: Page;
  let formId: string;
  let inbox: string;
  let member: User;

  async function submit(name: string): Promise<void> {
    const sent = await request(`${d.t.url}/api/submit/${formId}`, {
      json: { name, email: 'visitor@example.org' },
    });
    expect(sent.status).toBe(200);
  }

  const row = (name: string) =>
    page.locator('table.inbox-table tbody tr', { hasText: name });
  const count = (tab: string) =>
    page.getByTestId(`count-${tab}`).first().textContent();

  beforeAll(async () => {
    smtp = await TestSmtpServer.start();
    d = await openDashboardBrowser({
      env: {
        SMTP_URL: smtp.url,
        MAIL_FROM: 'forms@example.com',
        SUBMIT_RATE_LIMIT: '1000',
      },
    });
    page = d.page;
    const email = 'inbox-owner@example.com';
    await signUpInBrowser(page, d.t.url, email);
    const account = (await d.t.app.get(AccountsService).findByEmail(email))!;
    member = await createMember(d.t, account.id, 'editor');
    const { form } = await d.t.app.get(FormsService).create(account.id, {
      name: 'Leads',
      fields: [
        { id: 'name', type: 'text', label: 'Name' },
        { id: 'email', type: 'email', label: 'Email' },
      ],
    });
    formId = form.id;
    inbox = `${d.t.url}/dashboard/forms/${formId}`;
  });
  afterAll(async () => {
    await d?.close();
    await smtp?.close();
  });

  it('opens on New with its count, where a new submission arrives', async () => {
    await submit('Ada Lovelace');
    await page.goto(inbox);
    await expect(
      page.locator('[data-status-tab="new"]').getAttribute('aria-current'),
    ).resolves.toBe('page');
    await expect(count('new')).resolves.toBe('1');
    await expect(row('Ada Lovelace').count()).resolves.toBe(1);
    await page.getByRole('link', { name: /^New/ }).click();
    expect(page.url()).toMatch(/status=new/);
    await expect(row('Ada Lovelace').count()).resolves.toBe(1);
    await expect(
      row('Ada Lovelace').getByTestId('status').textContent(),
    ).resolves.toBe('New');
    await page.goto(`${d.t.url}/dashboard/forms`);
    await expect(page.getByTestId('new-count').textContent()).resolves.toBe(
      '1 new',
    );
  });

  it('moves a submission to Open when it is opened', async () => {
    await page.goto(`${inbox}?status=new`);
    await row('Ada Lovelace').getByRole('link', { name: /UTC/ }).click();
    await expectHeading(page, 'Submission');
    await expect(
      page.locator('#work').getByTestId('status').textContent(),
    ).resolves.toBe('Open');
    // Its page leads back to the tab it was opened from.
    await page.getByRole('link', { name: 'Back to submissions' }).click();
    await page.waitForURL(/\?status=new#submissions-title$/);
    await expect(row('Ada Lovelace').count()).resolves.toBe(0);
    await expect(count('new')).resolves.toBe('0');
    await expect(count('open')).resolves.toBe('1');
    await page.getByRole('link', { name: /^Open/ }).click();
    await expect(row('Ada Lovelace').count()).resolves.toBe(1);
  });

  it('mails the member assigned from a row', async () => {
    const before = smtp.messages.length;
    await page.goto(inbox);
    await page.getByRole('link', { name: /^Open/ }).click();
    const ada = row('Ada Lovelace');
    await ada.getByLabel('Assignee').selectOption({ label: member.email });
    await ada.getByRole('button', { name: /Save/ }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await expect(
      row('Ada Lovelace').getByTestId('assignee').textContent(),
    ).resolves.toBe(member.email);
    await smtp.waitForMessages(before + 1);
    const [mail] = smtp.to(member.email);
    expect(mail).toBeDefined();
    // A link only: no visitor text in the mail.
    expect(mail.raw).not.toContain('Ada Lovelace');
    const link = /https?:\/\/\S+\/submissions\/\S+/.exec(
      mail.parsed.text ?? '',
    )?.[0];
    expect(link).toContain(`/dashboard/forms/${formId}/submissions/`);
    // The link (on PUBLIC_URL, not this test's port) opens the submission it is about.
    await page.goto(`${d.t.url}${new URL(link!).pathname}`);
    await expectHeading(page, 'Submission');
    await expect(
      page.locator('#work').getByTestId('assignee').textContent(),
    ).resolves.toBe(member.email);
  });

  it('closes the selected submissions at once', async () => {
    await submit('Grace Hopper');
    await submit('Alan Turing');
    await page.goto(inbox);
    await row('Grace Hopper').getByRole('checkbox').check();
    await row('Alan Turing').getByRole('checkbox').check();
    await page.getByLabel('Set status').selectOption('closed');
    await page.getByRole('button', { name: 'Apply to selected' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: 'Updated 2 submissions.' })
      .waitFor();
    await expect(count('closed')).resolves.toBe('2');
    await screenshot(page, 'inbox');
    await page.getByRole('link', { name: /^Closed/ }).click();
    await expect(row('Grace Hopper').count()).resolves.toBe(1);
    await expect(row('Alan Turing').count()).resolves.toBe(1);
    await expect(row('Ada Lovelace').count()).resolves.toBe(0);
  });

  it('makes a label on the Labels page, puts it on a submission, and its chip narrows the list', async () => {
    await page.goto(inbox);
    await page.getByRole('link', { name: 'Make labels' }).click();
    await expectHeading(page, 'Labels');
    await page.getByLabel('Name', { exact: true }).fill('Hot lead');
    await page.getByLabel('Colour', { exact: true }).selectOption('red');
    await page.getByRole('button', { name: 'Create label' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: 'Label created.' })
      .waitFor();
    const made = page.getByTestId('label-chip').filter({ hasText: 'Hot lead' });
    // The chip wears the label's colour (red: #dc2626).
    await expect(
      made.evaluate((chip) => getComputedStyle(chip).borderTopColor),
    ).resolves.toBe('rgb(220, 38, 38)');

    await page.goto(inbox);
    await page.getByRole('link', { name: /^Closed/ }).click();
    await row('Grace Hopper').getByRole('link', { name: /UTC/ }).click();
    await page.getByLabel('Hot lead').check();
    await page.locator('#work').getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await page.getByRole('link', { name: 'Back to submissions' }).click();
    await page.waitForURL(/\?status=closed#submissions-title$/);
    const tagged = row('Grace Hopper').locator('.row-labels .chip');
    await expect(tagged.textContent()).resolves.toBe('Hot lead');
    await expect(
      tagged.evaluate(
        (chip) => getComputedStyle(chip, '::before').backgroundColor,
      ),
    ).resolves.toBe('rgb(220, 38, 38)');

    await page.getByRole('link', { name: /^All/ }).click();
    await page
      .getByRole('group', { name: 'Narrow the list' })
      .getByRole('link', { name: 'Hot lead' })
      .click();
    expect(page.url()).toMatch(/status=all/);
    expect(page.url()).toMatch(/label=Hot\+lead|label=Hot%20lead/);
    await expect(row('Grace Hopper').count()).resolves.toBe(1);
    await expect(row('Alan Turing').count()).resolves.toBe(0);
    await expect(row('Ada Lovelace').count()).resolves.toBe(0);
  });

  it('says how many submissions a search matches in all, above a page of 25', async () => {
    for (let i = 0; i < 30; i += 1) await submit(`Quokka fan ${i}`);
    await submit('Someone else');
    await page.goto(inbox);
    await page.getByRole('searchbox', { name: 'Search' }).fill('quokka');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/q=quokka/);
    await expect(page.getByTestId('match-count').textContent()).resolves.toBe(
      '30 submissions match',
    );
    await expect(
      page.getByTestId('results-count').textContent(),
    ).resolves.toContain('Showing new submissions containing “quokka”');
    await expect(
      page.locator('table.inbox-table tbody tr').count(),
    ).resolves.toBe(25);
    await page.getByRole('link', { name: 'Older submissions →' }).click();
    await expect(page.getByTestId('match-count').textContent()).resolves.toBe(
      '30 submissions match',
    );
    await expect(
      page.locator('table.inbox-table tbody tr').count(),
    ).resolves.toBe(5);
  });

  it('keeps the snippets on the Setup tab', async () => {
    await page.goto(inbox);
    await expect(page.locator('#snippets-title').count()).resolves.toBe(0);
    await page
      .getByRole('navigation', { name: 'Form sections' })
      .getByRole('link', { name: 'Setup' })
      .click();
    expect(page.url()).toBe(`${inbox}/setup`);
    await expect(page.getByLabel('HTML form').inputValue()).resolves.toContain(
      `/api/submit/${formId}`,
    );
    await expect(page.getByLabel('Form ID').inputValue()).resolves.toBe(formId);
  });

  it('stacks rows as cards on a phone, with no sideways scroll', async () => {
    await page.setViewportSize({ width: 375, height: 800 });
    try {
      for (const path of ['?status=all', `/setup`]) {
        await page.goto(`${inbox}${path}`);
        const { scrollWidth, clientWidth } = await page.evaluate(() => ({
          scrollWidth: document.documentElement.scrollWidth,
          clientWidth: document.documentElement.clientWidth,
        }));
        expect(scrollWidth, path || 'inbox').toBeLessThanOrEqual(clientWidth);
      }
      await page.goto(`${inbox}?status=all`);
      await screenshot(page, 'inbox-phone');
      // Each row a card: as wide as the list, one below the other.
      const cards = await page
        .locator('table.inbox-table tbody tr')
        .evaluateAll((rows) =>
          rows.map((r) => {
            const box = r.getBoundingClientRect();
            return { left: box.left, right: box.right, top: box.top };
          }),
        );
      expect(cards.length).toBeGreaterThanOrEqual(2);
      expect(cards[1].top).toBeGreaterThan(cards[0].top);
      for (const card of cards) expect(card.right).toBeLessThanOrEqual(375);
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });
});
