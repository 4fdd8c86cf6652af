// An owner alert carries nothing an owner or a visitor wrote: a webhook whose deliveries
// failed for 5 days is turned off by the real worker, and the message that reaches the
// owner's (verified) address through a real SMTP server names the form and the webhook by
// their ids and links to the dashboard — no form name, no webhook URL, no submitted value.
import { Webhook } from '../../../src/notifications/webhooks/webhook.entity.js';
import { createAccount } from '../../factories/accounts.js';
import { createForm } from '../../factories/forms.js';
import { request } from '../../support/http.js';
import { TestSmtpServer } from '../../support/smtp-server.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import {
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../support/webhook-receiver.js';

const PHISHING_NAME =
  'URGENT: your account is locked, sign in at https://evil.example/login';
const PUBLIC_URL = 'https://forms.example.test';

describe('owner alerts (e2e)', () => {
  let smtp: TestSmtpServer;
  let receiver: WebhookReceiver;
  let t: TestApp;

  beforeAll(async () => {
    smtp = await TestSmtpServer.start();
    receiver = await startWebhookReceiver();
    receiver.answer = () => 500;
    t = await createTestApp({
      env: {
        SMTP_URL: smtp.url,
        MAIL_FROM: 'forms@example.com',
        PUBLIC_URL,
        WEBHOOK_ALLOW_PRIVATE: 'true',
        WEBHOOK_RETRY_SCHEDULE: '0.2,0.2',
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
    await smtp?.close();
  });

  it('tells the owner a webhook was turned off with ids and a dashboard link only', async () => {
    const owner = await createAccount(t, 'alerted-owner@example.com');
    const form = await createForm(t, owner.account.id, { name: PHISHING_NAME });
    const hookUrl = `${receiver.url}/call-support-now-555-0100`;
    const created = await request(
      `${t.url}/api/v1/forms/${form.form.id}/webhooks`,
      {
        apiKey: owner.apiKey,
        json: { url: hookUrl, description: 'Wire the money today' },
      },
    );
    expect(created.status).toBe(201);
    const webhookId = created.body.id as string;
    const since = new Date(Date.now() - 5 * 86_400_000 - 60_000);
    await t.dataSource
      .getRepository(Webhook)
      .update({ id: webhookId }, { failingSince: since });

    const submitted = await request(`${t.url}/api/submit/${form.form.id}`, {
      json: {
        name: 'Visit https://evil.example/reset now',
        email: 'ada@example.com',
        message: 'Your password expires today',
      },
    });
    expect(submitted.status).toBe(200);
    await smtp.waitForMessages(1);

    const [mail, ...others] = smtp.to('alerted-owner@example.com');
    expect(others).toEqual([]);
    expect(mail.parsed.subject).toBe('Formgate: a webhook was turned off');
    const link = `${PUBLIC_URL}/dashboard/forms/${form.form.id}/notifications`;
    expect(mail.parsed.text).toBe(
      [
        `Every delivery to the webhook ${webhookId} of your form ${form.form.id} has failed since ${since.toISOString()}, so it was turned off.`,
        "Fix the endpoint, then turn the webhook on again on the form's Notifications page (failed deliveries can be retried from its delivery log):",
        link,
        `Or by API: PATCH /api/v1/forms/${form.form.id}/webhooks/${webhookId} {"enabled": true}`,
      ].join('\n\n') + '\n',
    );
    expect(mail.parsed.html).toContain(`<a href="${link}">${link}</a>`);
    for (const written of [
      'URGENT',
      'evil.example',
      'call-support-now',
      'Wire the money',
      'password expires',
      '127.0.0.1',
    ]) {
      expect(mail.raw, written).not.toContain(written);
    }
    expect(
      (
        await t.dataSource
          .getRepository(Webhook)
          .findOneByOrFail({ id: webhookId })
      ).enabled,
    ).toBe(false);
  });
});
