// A confirmation link the mail server refuses is not just a log line: the API shows why for
// that address (notifyEmailErrors), the Notifications tab says so beside it with a button that
// sends the link again, and saving the addresses again does send it. The confirmation page
// says which address and which form the link is about.
import { EmailRecipient } from '../../../src/notifications/email/email-recipient.entity.js';
import { EmailRecipientsService } from '../../../src/notifications/email/email-recipients.service.js';
import { createAccount, type TestAccount } from '../../factories/accounts.js';
import { DashboardClient, textOf } from '../../support/dashboard-client.js';
import { request } from '../../support/http.js';
import { TestSmtpServer } from '../../support/smtp-server.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

const LINK = /\/confirm-email\/([A-Za-z0-9_-]{43})/;

describe('confirmation mail that cannot be sent (e2e)', () => {
  let smtp: TestSmtpServer;
  let t: TestApp;
  let owner: TestAccount;
  let ownerEmail: string;

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
  beforeEach(async () => {
    ownerEmail = `owner-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`;
    owner = await createAccount(t, ownerEmail);
  });

  const settled = () => t.app.get(EmailRecipientsService).settled();

  it('shows per address why its link was not sent, and sends it when the form is saved again', async () => {
    const good = `good-${owner.account.id.toLowerCase()}@example.com`;
    const refused = `refused-${owner.account.id.toLowerCase()}@example.com`;
    smtp.refusedRecipients.add(refused);
    const created = await request(`${t.url}/api/v1/forms`, {
      apiKey: owner.apiKey,
      json: { name: 'Leads', notifyEmails: [good, refused] },
    });
    expect(created.status).toBe(201);
    await settled();
    expect(smtp.to(good)).toHaveLength(1);
    expect(smtp.to(refused)).toHaveLength(0);

    const read = await request(`${t.url}/api/v1/forms/${created.body.id}`, {
      apiKey: owner.apiKey,
    });
    expect(read.status).toBe(200);
    expect(read.body.notifyEmailStatus).toEqual({
      [good]: 'pending',
      [refused]: 'pending',
    });
    expect(Object.keys(read.body.notifyEmailErrors)).toEqual([refused]);
    expect(read.body.notifyEmailErrors[refused]).toMatch(/550/);
    const list = await request(`${t.url}/api/v1/forms`, {
      apiKey: owner.apiKey,
    });
    expect(list.body.data[0].notifyEmailErrors).toEqual(
      read.body.notifyEmailErrors,
    );
    const row = await t.dataSource
      .getRepository(EmailRecipient)
      .findOneByOrFail({ accountId: owner.account.id, address: refused });
    expect(row.tokenHash).toBeNull();
    expect(row.lastErrorAt).toBeInstanceOf(Date);

    // The server takes the address now: saving the same addresses sends its link.
    smtp.refusedRecipients.delete(refused);
    const saved = await request(`${t.url}/api/v1/forms/${created.body.id}`, {
      method: 'PATCH',
      apiKey: owner.apiKey,
      json: { notifyEmails: [good, refused] },
    });
    expect(saved.status).toBe(200);
    await settled();
    expect(smtp.to(refused)).toHaveLength(1);
    expect(smtp.to(good)).toHaveLength(1); // its link is still in force
    const after = await request(`${t.url}/api/v1/forms/${created.body.id}`, {
      apiKey: owner.apiKey,
    });
    expect(after.body.notifyEmailErrors).toEqual({});
    const cleared = await t.dataSource
      .getRepository(EmailRecipient)
      .findOneByOrFail({ accountId: owner.account.id, address: refused });
    expect(cleared.lastError).toBeNull();
    expect(cleared.tokenHash).not.toBeNull();
  });

  it('says so on the Notifications tab, whose button sends the link again', async () => {
    const refused = `tab-${owner.account.id.toLowerCase()}@example.com`;
    smtp.refusedRecipients.add(refused);
    const created = await request(`${t.url}/api/v1/forms`, {
      apiKey: owner.apiKey,
      json: { name: 'Quotes', notifyEmails: [refused] },
    });
    expect(created.status).toBe(201);
    await settled();
    const client = new DashboardClient(t.url);
    expect((await client.logIn(ownerEmail)).status).toBe(303);
    const tab = `/dashboard/forms/${created.body.id}/notifications`;
    const page = await client.get(tab);
    expect(page.status).toBe(200);
    const text = textOf(page.html);
    expect(text).toContain(`${refused} Link not sent`);
    expect(text).toMatch(
      /The confirmation link could not be sent: .*550.*Send the link again/,
    );

    smtp.refusedRecipients.delete(refused);
    const again = await client.post(
      `${tab.replace('/notifications', '/notifications/recipients')}`,
      { notifyEmails: refused },
      { from: tab },
    );
    expect(again.status).toBe(303);
    await settled();
    expect(smtp.to(refused)).toHaveLength(1);
    const after = textOf((await client.get(tab)).html);
    expect(after).toContain(`${refused} Pending confirmation`);
    expect(after).not.toContain('Link not sent');
  });

  it('names the address and the form on the confirmation page', async () => {
    const address = `named-${owner.account.id.toLowerCase()}@example.com`;
    const created = await request(`${t.url}/api/v1/forms`, {
      apiKey: owner.apiKey,
      json: { name: 'Support <desk>', notifyEmails: [address] },
    });
    expect(created.status).toBe(201);
    await settled();
    const token = LINK.exec(smtp.to(address)[0].parsed.text ?? '')![1];
    const page = await fetch(`${t.url}/confirm-email/${token}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(
      `Select Confirm to receive, at <strong class="confirm-address">${address}</strong>, the submissions of the form <strong class="confirm-form">“Support &lt;desk&gt;”</strong>. Nothing is sent to it until you do.`,
    );
    const confirmed = await fetch(`${t.url}/confirm-email/${token}`, {
      method: 'POST',
    });
    expect(confirmed.status).toBe(200);
    expect(await confirmed.text()).toContain(
      `From now on <strong class="confirm-address">${address}</strong> receives a message for each new submission of the form <strong class="confirm-form">“Support &lt;desk&gt;”</strong>.`,
    );
    const row = await t.dataSource
      .getRepository(EmailRecipient)
      .findOneByOrFail({ accountId: owner.account.id, address });
    expect(row.status).toBe('confirmed');
  });
});
