// A confirmed notification recipient, made the way an owner makes one: the address saved in
// the form's notifyEmails through the API, its confirmation link read from the mail the
// (loopback) SMTP server received, and the link's Confirm button posted.
import { EmailRecipientsService } from '../../src/notifications/email/email-recipients.service.js';
import type { TestForm } from '../factories/forms.js';
import { request } from './http.js';
import type { TestSmtpServer } from './smtp-server.js';
import type { TestApp } from './test-app.js';

const CONFIRM_LINK = /\/confirm-email\/([A-Za-z0-9_-]{43})/;

export async function confirmRecipient(
  t: TestApp,
  smtp: TestSmtpServer,
  form: TestForm,
  address: string,
): Promise<void> {
  const saved = await request(`${t.url}/api/v1/forms/${form.form.id}`, {
    method: 'PATCH',
    apiKey: form.apiKey,
    json: { notifyEmails: [address] },
  });
  expect(saved.status).toBe(200);
  await t.app.get(EmailRecipientsService).settled();
  const mail = smtp.to(address).at(-1);
  const token = CONFIRM_LINK.exec(mail?.parsed.text ?? '')?.[1];
  expect(token, `a confirmation link mailed to ${address}`).toBeDefined();
  const confirmed = await request(`${t.url}/confirm-email/${token}`, {
    method: 'POST',
    form: {},
  });
  expect(confirmed.status).toBe(200);
}
