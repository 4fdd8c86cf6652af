// The form's Notifications tab shows its email recipients with their confirmation state, and
// says plainly when the server has no mail settings.
import { Form } from '../../../src/forms/form.entity.js';
import { FormsService } from '../../../src/forms/forms.service.js';
import { EmailRecipient } from '../../../src/notifications/email/email-recipient.entity.js';
import { EmailRecipientsService } from '../../../src/notifications/email/email-recipients.service.js';
import { createAccount } from '../../factories/accounts.js';
import { DashboardClient, textOf } from '../../support/dashboard-client.js';
import { request } from '../../support/http.js';
import { TestSmtpServer } from '../../support/smtp-server.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

async function notificationsTab(
  t: TestApp,
  addresses: string[],
  confirm: string[] = [],
): Promise<{ status: number; text: string; html: string }> {
  const email = `owner-${addresses.length}-${Date.now()}@example.com`;
  const { account, apiKey } = await createAccount(t, email);
  const created = await request(`${t.url}/api/v1/forms`, {
    apiKey,
    json: { name: 'Leads', notifyEmails: addresses },
  });
  expect(created.status).toBe(201);
  await t.app.get(EmailRecipientsService).settled();
  for (const address of confirm) {
    await t.dataSource
      .getRepository(EmailRecipient)
      .update({ accountId: account.id, address }, { status: 'confirmed' });
  }
  const client = new DashboardClient(t.url);
  expect((await client.logIn(email)).status).toBe(303);
  const page = await client.get(
    `/dashboard/forms/${created.body.id}/notifications`,
  );
  return { status: page.status, text: textOf(page.html), html: page.html };
}

describe('recipients on the Notifications tab, mail off (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lists the addresses as pending and says email is off', async () => {
    const page = await notificationsTab(t, ['a@example.com']);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Email recipients');
    expect(page.text).toContain(
      'Email is off: this server has no mail settings (SMTP_URL and MAIL_FROM)',
    );
    expect(page.text).toContain('a@example.com Pending confirmation');
  });
});

describe('recipients on the Notifications tab, mail on (e2e)', () => {
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

  it('shows each address with its state, escaped', async () => {
    const page = await notificationsTab(
      t,
      ['done@example.com', "o'brien@example.com"],
      ['done@example.com'],
    );
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('Email is off');
    expect(page.text).toContain('done@example.com Confirmed');
    expect(page.text).toContain('o&#39;brien@example.com Pending confirmation');
  });

  it('says how to add recipients when there are none', async () => {
    const page = await notificationsTab(t, []);
    expect(page.text).toContain('No recipients.');
  });

  it('saves the recipients typed in the box, mailing each new one a link', async () => {
    const email = `editor-${Date.now()}@example.com`;
    const { account } = await createAccount(t, email);
    const form = await t.app
      .get(FormsService)
      .create(account.id, { name: 'Edited' });
    const client = new DashboardClient(t.url);
    expect((await client.logIn(email)).status).toBe(303);
    const tab = `/dashboard/forms/${form.form.id}/notifications`;
    const action = `/dashboard/forms/${form.form.id}/notifications/recipients`;

    const bad = await client.post(
      action,
      { notifyEmails: 'ok@example.com\nnot-an-address' },
      { from: tab },
    );
    expect(bad.status).toBe(400);
    expect(textOf(bad.html)).toContain(
      'Address 2 must be a valid email address (got &quot;not-an-address&quot;)',
    );
    expect(bad.html).toContain('ok@example.com\nnot-an-address</textarea>');

    const saved = await client.post(
      action,
      { notifyEmails: ' One@Example.com\r\n\r\ntwo@example.com, ' },
      { from: tab },
    );
    expect(saved.status).toBe(303);
    expect(saved.location).toBe(`${tab}?done=recipients-saved#recipients`);
    const stored = await t.dataSource
      .getRepository(Form)
      .findOneByOrFail({ id: form.form.id });
    expect(stored.notifyEmails).toEqual(['one@example.com', 'two@example.com']);
    await t.app.get(EmailRecipientsService).settled();
    expect(smtp.to('one@example.com')).toHaveLength(1);
    expect(smtp.to('two@example.com')).toHaveLength(1);

    const page = await client.get(`${tab}?done=recipients-saved`);
    expect(textOf(page.html)).toContain('Recipients saved.');
    expect(textOf(page.html)).toContain(
      'one@example.com Pending confirmation two@example.com Pending confirmation',
    );

    // Without its CSRF token the post is refused and changes nothing.
    const forged = await client.post(
      action,
      { notifyEmails: 'evil@example.com' },
      { csrf: 'forged' },
    );
    expect(forged.status).toBe(403);
    expect(
      (
        await t.dataSource
          .getRepository(Form)
          .findOneByOrFail({ id: form.form.id })
      ).notifyEmails,
    ).toEqual(['one@example.com', 'two@example.com']);
  });
});
