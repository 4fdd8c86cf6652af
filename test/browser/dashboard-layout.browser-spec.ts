// Layout details a person notices, measured in a real browser (and saved as screenshots):
// the API key's Show/Hide button stays where it was when the key opens, an event name in the
// delivery log never breaks mid-word on a phone, nothing on that page runs off a phone's
// screen or out of its card, and a recipient whose link could not be sent
// shows why beside its address.
import type { Page } from 'playwright-core';
import { AccountsService } from '../../src/accounts/accounts.service.js';
import { FormsService } from '../../src/forms/forms.service.js';
import { EmailRecipientsService } from '../../src/notifications/email/email-recipients.service.js';
import { describeBrowser } from '../support/browser.js';
import {
  openDashboardBrowser,
  screenshot,
  signUpInBrowser,
  type DashboardBrowser,
} from '../support/dashboard-browser.js';
import { request } from '../support/http.js';
import { freePort } from '../support/server-process.js';
import { TestSmtpServer } from '../support/smtp-server.js';

async function box(page: Page, selector: string) {
  const found = await page.locator(selector).first().boundingBox();
  expect(found, selector).not.toBeNull();
  return found!;
}

describeBrowser('dashboard layout (browser)', () => {
  let d: DashboardBrowser;
  let smtp: TestSmtpServer;
  let formId: string;

  beforeAll(async () => {
    smtp = await TestSmtpServer.start();
    d = await openDashboardBrowser({
      env: {
        WEBHOOK_ALLOW_PRIVATE: 'true',
        SMTP_URL: smtp.url,
        MAIL_FROM: 'forms@example.com',
      },
    });
    const email = 'layout@example.com';
    await signUpInBrowser(d.page, d.t.url, email);
    const account = (await d.t.app.get(AccountsService).findByEmail(email))!;
    smtp.refusedRecipients.add('bounced@example.com');
    const { form, apiKey } = await d.t.app
      .get(FormsService)
      .create(account.id, {
        name: 'Contact',
        fields: [{ id: 'email', type: 'email', required: true }],
        notifyEmails: ['bounced@example.com'],
      });
    formId = form.id;
    await d.t.app.get(EmailRecipientsService).settled();
    // A webhook nobody listens on: its deliveries stay in the log as failed.
    const hook = await request(`${d.t.url}/api/v1/forms/${formId}/webhooks`, {
      apiKey,
      json: { url: `http://127.0.0.1:${await freePort()}/hook` },
    });
    expect(hook.status).toBe(201);
    const sent = await request(`${d.t.url}/api/submit/${formId}`, {
      json: { email: 'ada@example.com' },
    });
    expect(sent.status).toBe(200);
  });
  afterAll(async () => {
    await d?.close();
    await smtp?.close();
  });

  it('keeps the Show/Hide API key button in place when the key opens', async () => {
    const { page } = d;
    await page.goto(`${d.t.url}/dashboard/forms/${formId}/setup`);
    const closed = await box(page, 'details.secret > summary');
    await page.getByText('Show API key').click();
    await page.getByText('Hide API key').waitFor();
    const open = await box(page, 'details.secret > summary');
    const label = await box(page, 'dt:has-text("API key")');
    await screenshot(page, 'api-key-open');
    // Same place and size, and on the line of its "API key" label.
    expect(Math.abs(open.x - closed.x)).toBeLessThan(1);
    expect(Math.abs(open.y - closed.y)).toBeLessThan(1);
    expect(Math.abs(open.height - closed.height)).toBeLessThan(1);
    expect(
      Math.abs(open.y + open.height / 2 - (label.y + label.height / 2)),
    ).toBeLessThan(label.height / 2);
    // Every label of the card sits on the line of its value's first row.
    for (const [dt, value] of [
      ['Form ID', '#form-id'],
      ['Endpoint', '#submit-url'],
    ]) {
      const name = await box(page, `dt:has-text("${dt}")`);
      const input = await box(page, value);
      expect(
        Math.abs(name.y + name.height / 2 - (input.y + input.height / 2)),
        dt,
      ).toBeLessThan(input.height / 2);
    }
    // The key below it, not beside it.
    const key = await box(page, '#api-key');
    expect(key.y).toBeGreaterThanOrEqual(open.y + open.height);
  });

  it('never breaks an event name mid-word in the delivery log, even on a phone', async () => {
    const { page } = d;
    await page.setViewportSize({ width: 360, height: 780 });
    try {
      await page.goto(`${d.t.url}/dashboard/forms/${formId}/notifications`);
      const event = page.locator('code.event-name', {
        hasText: 'submission.created',
      });
      await event.first().waitFor();
      const lineHeight = await event
        .first()
        .evaluate((el) => parseFloat(getComputedStyle(el).lineHeight) || 20);
      const rect = await event.first().boundingBox();
      await screenshot(page, 'delivery-log-phone');
      expect(rect!.height).toBeLessThan(lineHeight * 1.6);
      // Nothing is wider than the phone, nor runs out of its card (the log's table
      // scrolls within its own frame).
      const widths = await page.evaluate(() => {
        const viewport = document.documentElement.clientWidth;
        const overflowing = [...document.querySelectorAll('body *')].filter(
          (el) => {
            if (el.closest('.table-wrap') !== null) return false;
            const right = el.getBoundingClientRect().right;
            const card = el.parentElement?.closest('.card, .domain');
            const limit = card ? card.getBoundingClientRect().right : viewport;
            return right > limit + 1;
          },
        );
        return {
          page: document.documentElement.scrollWidth,
          viewport,
          overflowing: overflowing
            .slice(0, 5)
            .map(
              (el) =>
                `${el.tagName.toLowerCase()}.${el.className}: ${el.textContent?.trim().slice(0, 40)}`,
            ),
        };
      });
      expect(widths.overflowing).toEqual([]);
      expect(widths.page).toBeLessThanOrEqual(widths.viewport);

      // The recipient whose link bounced says why, with a way to send it again.
      const recipient = page.locator('.recipient-list li', {
        hasText: 'bounced@example.com',
      });
      await recipient.getByText('Link not sent').waitFor();
      await recipient.getByText(/could not be sent: .*550/).waitFor();
      await recipient
        .getByRole('button', { name: 'Send the link again' })
        .waitFor();
      await recipient.scrollIntoViewIfNeeded();
      await screenshot(page, 'recipient-not-sent-phone');
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });
});
