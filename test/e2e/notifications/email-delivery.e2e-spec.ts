// Email through the whole path: a submission to a form with a confirmed recipient writes
// an email delivery with it, the worker sends it to a real SMTP server on loopback with
// `_subject` / `_replyto` honoured, and the delivery log records the SMTP answer. A pending
// recipient gets nothing but its confirmation link.
import { DataSource } from 'typeorm';
import { Delivery } from '../../../src/notifications/deliveries/delivery.entity.js';
import { EmailRecipientsService } from '../../../src/notifications/email/email-recipients.service.js';
import { CONFIRMATION_SUBJECT } from '../../../src/notifications/email/confirmation-mail.js';
import { createAccount } from '../../factories/accounts.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import { request } from '../../support/http.js';
import { waitFor } from '../../support/server-process.js';
import { countRows, outboxExpanded } from '../../support/stored-rows.js';
import { TestSmtpServer } from '../../support/smtp-server.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

const CONFIRMED = 'owner@example.com';
const PENDING = 'later@example.com';
const LINK = /\/confirm-email\/([A-Za-z0-9_-]{43})/;

describe('email deliveries (e2e)', () => {
  let smtp: TestSmtpServer;
  let t: TestApp;
  let form: TestForm;

  beforeAll(async () => {
    smtp = await TestSmtpServer.start({ user: 'mailer', pass: 'pw' });
    t = await createTestApp({
      env: {
        SMTP_URL: smtp.url,
        MAIL_FROM: 'Formgate <forms@example.com>',
        PUBLIC_URL: 'https://forms.example.test',
        // Ten quick retries: room to change the form while a delivery is still being tried.
        WEBHOOK_RETRY_SCHEDULE: '0.3,0.3,0.3,0.3,0.3,0.3,0.3,0.3,0.3,0.3',
        SUBMIT_RATE_LIMIT: '1000',
      },
    });
    const { account } = await createAccount(t);
    form = await createForm(t, account.id);
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const deliveries = () => t.app.get(DataSource).getRepository(Delivery);
  const submit = (body: Record<string, string>, asForm = false) =>
    request(
      `${t.url}/api/submit/${form.form.id}`,
      asForm ? { form: body } : { json: body },
    );

  async function confirm(address: string): Promise<void> {
    const [mail] = smtp.to(address);
    const token = LINK.exec(mail.parsed.text ?? '')![1];
    const done = await request(`${t.url}/confirm-email/${token}`, {
      method: 'POST',
      form: {},
    });
    expect(done.status).toBe(200);
  }

  it('mails a confirmed recipient each submission, with _subject and _replyto, and a pending one nothing', async () => {
    const saved = await request(`${t.url}/api/v1/forms/${form.form.id}`, {
      method: 'PATCH',
      apiKey: form.apiKey,
      json: { notifyEmails: [CONFIRMED, PENDING] },
    });
    expect(saved.status).toBe(200);
    await t.app.get(EmailRecipientsService).settled();
    expect(smtp.messages.map((mail) => mail.envelope.to)).toEqual([
      [CONFIRMED],
      [PENDING],
    ]);

    // Before anyone confirmed, a submission notifies no one by email.
    expect(
      (await submit({ name: 'Early', email: 'e@example.com' })).status,
    ).toBe(200);
    // Nothing entered the outbox for it: no delivery will ever be made.
    expect(await countRows(t, 'outbox_event')).toBe(0);
    expect(await deliveries().countBy({ channel: 'email' })).toBe(0);

    // Confirming drops the form's cached targets at once: the next submission is mailed.
    await confirm(CONFIRMED);
    const answer = await submit({
      name: 'Ada <b>',
      email: 'ada@example.com',
      message: 'Hello',
      _subject: 'Quote request\r\nBcc: victim@example.org',
      _replyto: 'buyer@example.org',
    });
    expect(answer.status).toBe(200);
    await smtp.waitForMessages(3);

    const [row, ...others] = await deliveries().findBy({ channel: 'email' });
    expect(others).toEqual([]);
    expect(row).toMatchObject({
      target: CONFIRMED,
      event: 'submission.created',
    });
    expect(JSON.parse(row.payload!)).toEqual({
      _subject: 'Quote request\r\nBcc: victim@example.org',
      _replyto: 'buyer@example.org',
    });
    const mail = smtp.messages[2];
    expect(mail.envelope.to).toEqual([CONFIRMED]);
    expect(mail.parsed.subject).toBe('Quote request  Bcc: victim@example.org');
    expect(mail.parsed.headers.has('bcc')).toBe(false);
    expect(mail.parsed.replyTo?.value).toEqual([
      { address: 'buyer@example.org', name: '' },
    ]);
    expect(mail.parsed.html).toContain('Ada &lt;b&gt;');
    expect(mail.parsed.text).toContain(
      `https://forms.example.test/dashboard/forms/${form.form.id}/submissions/${row.submissionId}`,
    );
    await waitFor(
      async () =>
        (await deliveries().findOneByOrFail({ id: row.id })).status ===
        'succeeded',
      10_000,
    );
    expect(await deliveries().findOneByOrFail({ id: row.id })).toMatchObject({
      status: 'succeeded',
      attempts: 1,
      lastStatusCode: 250,
      lastError: null,
    });

    // A site's own HTML form, posted urlencoded, without _subject: the default subject,
    // and the submitter's email field as Reply-To.
    expect(
      (await submit({ name: 'Grace', email: 'grace@example.com' }, true))
        .status,
    ).toBe(200);
    await smtp.waitForMessages(4);
    const second = smtp.messages[3];
    expect(second.envelope.to).toEqual([CONFIRMED]);
    expect(second.parsed.subject).toBe('New submission: Contact');
    expect(second.parsed.replyTo?.value).toEqual([
      { address: 'grace@example.com', name: '' },
    ]);

    // The pending address only ever received its confirmation link.
    expect(smtp.to(PENDING).map((m) => m.parsed.subject)).toEqual([
      CONFIRMATION_SUBJECT,
    ]);
    expect(await deliveries().countBy({ target: PENDING })).toBe(0);
  });

  it('retries a refused message and gives up on an address removed from the form', async () => {
    smtp.refusedRecipients.add(CONFIRMED);
    const before = smtp.messages.length;
    expect(
      (await submit({ name: 'Retry', email: 'r@example.com' })).status,
    ).toBe(200);
    await outboxExpanded(t);
    const [row] = await deliveries().find({
      where: { channel: 'email' },
      order: { id: 'DESC' },
      take: 1,
    });
    await waitFor(
      async () =>
        (await deliveries().findOneByOrFail({ id: row.id })).attempts >= 2,
      10_000,
    );
    expect(await deliveries().findOneByOrFail({ id: row.id })).toMatchObject({
      status: 'failed',
      lastStatusCode: 550,
    });
    smtp.refusedRecipients.delete(CONFIRMED);
    await smtp.waitForMessages(before + 1);
    await waitFor(
      async () =>
        (await deliveries().findOneByOrFail({ id: row.id })).status ===
        'succeeded',
      10_000,
    );

    // Removed while a delivery waits: that delivery stops for good, nothing is sent.
    smtp.refusedRecipients.add(CONFIRMED);
    expect(
      (await submit({ name: 'Gone', email: 'g@example.com' })).status,
    ).toBe(200);
    await outboxExpanded(t);
    const [last] = await deliveries().find({
      where: { channel: 'email' },
      order: { id: 'DESC' },
      take: 1,
    });
    await waitFor(
      async () =>
        (await deliveries().findOneByOrFail({ id: last.id })).attempts >= 1,
      10_000,
    );
    const removed = await request(`${t.url}/api/v1/forms/${form.form.id}`, {
      method: 'PATCH',
      apiKey: form.apiKey,
      json: { notifyEmails: [PENDING] },
    });
    expect(removed.status).toBe(200);
    smtp.refusedRecipients.delete(CONFIRMED);
    await waitFor(
      async () =>
        (await deliveries().findOneByOrFail({ id: last.id })).status === 'dead',
      10_000,
    );
    expect(
      (await deliveries().findOneByOrFail({ id: last.id })).lastError,
    ).toBe(`${CONFIRMED} is no longer a recipient of this form`);
    expect(smtp.messages).toHaveLength(before + 1);
  });
});
