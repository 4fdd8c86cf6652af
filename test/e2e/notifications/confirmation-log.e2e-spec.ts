// A confirmation link's token never reaches the log: it is valid for 7 days, and whoever
// reads it can confirm the address. Before, the request line of GET and POST
// /confirm-email/<token> carried it in its URL.
import { EmailRecipientsService } from '../../../src/notifications/email/email-recipients.service.js';
import { createAccount } from '../../factories/accounts.js';
import { request } from '../../support/http.js';
import { TestSmtpServer } from '../../support/smtp-server.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

const LINK = /\/confirm-email\/([A-Za-z0-9_-]{43})/;

describe('confirmation tokens in the log (e2e)', () => {
  let smtp: TestSmtpServer;
  let t: TestApp;

  beforeAll(async () => {
    smtp = await TestSmtpServer.start();
    t = await createTestApp({
      env: { SMTP_URL: smtp.url, MAIL_FROM: 'forms@example.com' },
    });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('logs the confirmation requests with the token redacted', async () => {
    const owner = await createAccount(t);
    const address = `logged-${owner.account.id.toLowerCase()}@example.com`;
    const created = await request(`${t.url}/api/v1/forms`, {
      apiKey: owner.apiKey,
      json: { name: 'Leads', notifyEmails: [address] },
    });
    expect(created.status).toBe(201);
    await t.app.get(EmailRecipientsService).settled();
    const [mail] = smtp.to(address);
    const token = LINK.exec(mail.parsed.text ?? '')![1];

    const shown = await fetch(`${t.url}/confirm-email/${token}`);
    expect(shown.status).toBe(200);
    await shown.text();
    const confirmed = await fetch(`${t.url}/confirm-email/${token}`, {
      method: 'POST',
      headers: { referer: `${t.url}/confirm-email/${token}` },
    });
    expect(confirmed.status).toBe(200);
    await confirmed.text();
    // An encoded spelling of the path reaches the same route.
    const encoded = await fetch(`${t.url}/confirm-email%2F${token}`);
    await encoded.text();

    const lines = t.logs.filter((line) => line.includes('confirm-email'));
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(t.logs.filter((line) => line.includes(token))).toEqual([]);
    const urls = lines
      .map((line) => (JSON.parse(line) as { req?: { url?: string } }).req?.url)
      .filter((url) => url !== undefined);
    expect(urls).toContain('/confirm-email/[REDACTED]');
  });
});
