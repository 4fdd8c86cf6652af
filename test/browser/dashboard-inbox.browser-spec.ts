// The form page as a team's inbox, in a real browser (DESIGN 20): a new submission arrives
// in New with its count, opening it moves it to Open, assigning someone mails them (a real
// SMTP server on loopback), closing many at once, a label chip narrowing the list, the
// Setup tab holding the snippets, and a phone's width with no sideways scroll.
import type { Page } from 'playwright-core';
import { AccountsService } from '../../src/accounts/accounts.service.js';
import type { User } from '../../src/accounts/user.entity.js';
import { FormsService } from '../../src/forms/forms.service.js';
import { LabelsService } from '../../src/submissions/inbox/labels.service.js';
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
      env: { SMTP_URL: smtp.url, MAIL_FROM: 'forms@example.com' },
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
    await d.t.app
      .get(LabelsService)
      .create(account.id, { name: 'Hot lead', color: 'red' });
  });
  afterAll(async () => {
    await d?.close();
    await smtp?.close();
  });

  it('shows a new submission in New with its count', async () => {
    await submit('Ada Lovelace');
    await page.goto(inbox);
    await expect(count('new')).resolves.toBe('1');
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
    await page.goto(inbox);
    await expect(count('new')).resolves.toBe('0');
    await expect(count('open')).resolves.toBe('1');
    await page.getByRole('link', { name: /^Open/ }).click();
    await expect(row('Ada Lovelace').count()).resolves.toBe(1);
  });

  it('mails the member assigned from a row', async () => {
    const before = smtp.messages.length;
    await page.goto(inbox);
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

  it('narrows the list to a label with its chip', async () => {
    await page.goto(inbox);
    await row('Grace Hopper').getByRole('link', { name: /UTC/ }).click();
    await page.getByLabel('Hot lead').check();
    await page.locator('#work').getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await page.goto(inbox);
    await page.getByRole('link', { name: 'Hot lead' }).click();
    expect(page.url()).toMatch(/label=Hot\+lead|label=Hot%20lead/);
    await expect(row('Grace Hopper').count()).resolves.toBe(1);
    await expect(row('Alan Turing').count()).resolves.toBe(0);
    await expect(row('Ada Lovelace').count()).resolves.toBe(0);
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
      for (const path of ['', `/setup`]) {
        await page.goto(`${inbox}${path}`);
        const { scrollWidth, clientWidth } = await page.evaluate(() => ({
          scrollWidth: document.documentElement.scrollWidth,
          clientWidth: document.documentElement.clientWidth,
        }));
        expect(scrollWidth, path || 'inbox').toBeLessThanOrEqual(clientWidth);
      }
      await page.goto(inbox);
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
