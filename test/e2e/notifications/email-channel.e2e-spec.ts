// The email channel against a real SMTP server on loopback: the message reaches exactly
// its confirmed recipient with the right subject, Reply-To and escaped values, no value
// can add a header or a recipient, and a failing server is an outcome, not an exception.
import { Logger } from '@nestjs/common';
import { Submission } from '../../../src/submissions/submission.entity.js';
import { EmailRecipient } from '../../../src/notifications/email/email-recipient.entity.js';
import { EmailChannel } from '../../../src/notifications/email/email.channel.js';
import { EmailRecipientsService } from '../../../src/notifications/email/email-recipients.service.js';
import {
  OWNER_ALERTS,
  type DeliveryToSend,
  type OwnerAlerts,
  type SubmissionNotice,
} from '../../../src/notifications/notification-channel.js';
import { FormsService } from '../../../src/forms/forms.service.js';
import { createAccount, type TestAccount } from '../../factories/accounts.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import { request } from '../../support/http.js';
import { closedPort, TestSmtpServer } from '../../support/smtp-server.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

const FIELDS = [
  { id: 'name', type: 'text' as const, label: 'Name' },
  { id: 'email', type: 'email' as const, label: 'Email' },
  { id: 'message', type: 'textarea' as const, label: 'Message' },
];
// The worker stays off: these tests call the channel themselves, one attempt at a time.
const MAIL_ENV = {
  WORKER_ENABLED: 'false',
  MAIL_FROM: 'forms@example.com',
  PUBLIC_URL: 'https://forms.example.test',
};

async function submit(
  t: TestApp,
  formId: string,
  body: Record<string, string>,
) {
  const res = await request(`${t.url}/api/submit/${formId}`, { json: body });
  expect(res.status).toBe(200);
  const [row] = await t.dataSource
    .getRepository(Submission)
    .find({ where: { formId }, order: { id: 'DESC' }, take: 1 });
  return row;
}

function notice(row: Submission, accountId: string): SubmissionNotice {
  return {
    id: row.id,
    formId: row.formId,
    formName: 'Contact',
    accountId,
    createdAt: row.createdAt,
    data: typeof row.data === 'string' ? JSON.parse(row.data) : row.data,
    meta: { ip: row.ip, userAgent: row.userAgent, origin: row.origin },
  };
}

function delivery(
  form: TestForm,
  target: string,
  submissionId: string,
  payload?: Record<string, string>,
): DeliveryToSend {
  return {
    id: `dlv_${submissionId}`,
    formId: form.form.id,
    channel: 'email',
    target,
    event: 'submission.created',
    submissionId,
    attempts: 0,
    ...(payload ? { payload } : {}),
  };
}

describe('email channel (e2e)', () => {
  let smtp: TestSmtpServer;
  let t: TestApp;
  let owner: TestAccount;
  let form: TestForm;
  let channel: EmailChannel;
  const confirmedTo = 'owner@example.com';
  const pendingTo = 'pending@example.com';
  const signal = () => new AbortController().signal;

  beforeAll(async () => {
    smtp = await TestSmtpServer.start();
    t = await createTestApp({
      env: { ...MAIL_ENV, SMTP_URL: smtp.url, SUBMIT_RATE_LIMIT: '1000' },
    });
    channel = t.app.get(EmailChannel);
    owner = await createAccount(t, 'boss@example.com');
    form = await createForm(t, owner.account.id, { fields: FIELDS });
    await t.app.get(FormsService).patch(form.form, {
      notifyEmails: [confirmedTo, pendingTo],
    });
    await t.app.get(EmailRecipientsService).settled();
    // The link flow has its own tests: here one address is confirmed directly.
    await t.dataSource
      .getRepository(EmailRecipient)
      .update(
        { accountId: owner.account.id, address: confirmedTo },
        { status: 'confirmed', confirmedAt: new Date() },
      );
    smtp.messages.length = 0;
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });
  beforeEach(() => {
    smtp.messages.length = 0;
  });

  it('names only confirmed addresses as targets', async () => {
    expect(await channel.targetsFor(form.form.id)).toEqual([confirmedTo]);
    expect(await channel.targetsFor('no-such-form')).toEqual([]);
  });

  it('sends one message to the recipient with subject, Reply-To, every field and the link', async () => {
    const row = await submit(t, form.form.id, {
      name: 'Ada <b>Lovelace</b>',
      email: 'ada@example.com',
      message: 'Hi & <script>alert(1)</script>',
    });
    const outcome = await channel.send(
      delivery(form, confirmedTo, row.id),
      notice(row, owner.account.id),
      signal(),
    );
    expect(outcome).toMatchObject({ ok: true, statusCode: 250, error: null });
    expect(outcome.durationMs).toBeGreaterThanOrEqual(0);
    expect(outcome.final).toBeUndefined();

    expect(smtp.messages).toHaveLength(1);
    const [mail] = smtp.messages;
    expect(mail.envelope).toEqual({
      from: 'forms@example.com',
      to: [confirmedTo],
    });
    expect(mail.parsed.to).toMatchObject({ value: [{ address: confirmedTo }] });
    expect(mail.parsed.subject).toBe('New submission: Contact');
    expect(mail.parsed.replyTo?.value).toEqual([
      { address: 'ada@example.com', name: '' },
    ]);
    const link = `https://forms.example.test/dashboard/forms/${form.form.id}/submissions/${row.id}`;
    expect(mail.parsed.text).toContain('Name: Ada <b>Lovelace</b>');
    expect(mail.parsed.text).toContain(
      'Message: Hi & <script>alert(1)</script>',
    );
    expect(mail.parsed.text).toContain(link);
    expect(mail.parsed.html).toContain('Ada &lt;b&gt;Lovelace&lt;/b&gt;');
    expect(mail.parsed.html).toContain(
      'Hi &amp; &lt;script&gt;alert(1)&lt;/script&gt;',
    );
    expect(mail.parsed.html).not.toMatch(/<script|<b>/);
    expect(mail.parsed.html).toContain(`<a href="${link}">`);
  });

  it('honours _subject (on one line, cut to 200) and a valid _replyto', async () => {
    const row = await submit(t, form.form.id, { email: 'ada@example.com' });
    const subject = `Quote\r\nBcc: victim@example.org\n${'é'.repeat(300)}`;
    const outcome = await channel.send(
      delivery(form, confirmedTo, row.id, {
        _subject: subject,
        _replyto: 'sales-lead@example.org',
      }),
      notice(row, owner.account.id),
      signal(),
    );
    expect(outcome.ok).toBe(true);
    const [mail] = smtp.messages;
    const expected = `Quote  Bcc: victim@example.org ${'é'.repeat(300)}`.slice(
      0,
      200,
    );
    expect(mail.parsed.subject).toBe(expected);
    expect(mail.parsed.replyTo?.value).toEqual([
      { address: 'sales-lead@example.org', name: '' },
    ]);
    expect(mail.parsed.headers.has('bcc')).toBe(false);
    expect(mail.envelope.to).toEqual([confirmedTo]);
  });

  it('lets no value add a header or a recipient', async () => {
    const row = await submit(t, form.form.id, {
      name: 'x\r\nBcc: victim@example.org\r\nX-Injected: 1',
      message:
        '\r\n.\r\nMAIL FROM:<evil@example.org>\r\nRCPT TO:<victim@example.org>',
    });
    const outcome = await channel.send(
      delivery(form, confirmedTo, row.id, {
        _subject: 'Hi\r\nX-Injected: 2',
        _replyto: 'a@example.org\r\nBcc: victim@example.org',
      }),
      notice(row, owner.account.id),
      signal(),
    );
    expect(outcome.ok).toBe(true);
    expect(smtp.messages).toHaveLength(1);
    const [mail] = smtp.messages;
    expect(mail.envelope.to).toEqual([confirmedTo]);
    expect(mail.parsed.headers.has('bcc')).toBe(false);
    expect(mail.parsed.headers.has('x-injected')).toBe(false);
    expect(mail.parsed.subject).toBe('Hi  X-Injected: 2');
    // An invalid _replyto is ignored; no email field was filled in: no Reply-To at all.
    expect(mail.parsed.replyTo).toBeUndefined();
    expect(mail.parsed.text).toContain('RCPT TO:<victim@example.org>');
  });

  it('sends nothing to an unconfirmed or removed address, for good', async () => {
    const row = await submit(t, form.form.id, { email: 'ada@example.com' });
    const pending = await channel.send(
      delivery(form, pendingTo, row.id),
      notice(row, owner.account.id),
      signal(),
    );
    expect(pending).toMatchObject({ ok: false, final: true, statusCode: null });
    expect(pending.error).toBe(`${pendingTo} has not confirmed`);
    const stranger = await channel.send(
      delivery(form, 'stranger@example.org', row.id),
      notice(row, owner.account.id),
      signal(),
    );
    expect(stranger).toMatchObject({ ok: false, final: true });
    expect(stranger.error).toBe(
      'stranger@example.org is no longer a recipient of this form',
    );
    const gone = await channel.send(
      delivery(form, confirmedTo, row.id),
      null,
      signal(),
    );
    expect(gone).toMatchObject({ ok: false, final: true });
    expect(smtp.messages).toEqual([]);
  });

  it('reports a refused recipient with the SMTP reply code', async () => {
    const row = await submit(t, form.form.id, { email: 'ada@example.com' });
    smtp.refusedRecipients.add(confirmedTo);
    try {
      const outcome = await channel.send(
        delivery(form, confirmedTo, row.id),
        notice(row, owner.account.id),
        signal(),
      );
      expect(outcome.ok).toBe(false);
      expect(outcome.statusCode).toBe(550);
      expect(outcome.error).toContain('Mailbox unavailable');
    } finally {
      smtp.refusedRecipients.delete(confirmedTo);
    }
    expect(smtp.messages).toEqual([]);
  });

  it('mails owner alerts to the account address', async () => {
    const alerts = t.app.get<OwnerAlerts>(OWNER_ALERTS);
    await alerts.alert(owner.account.id, {
      type: 'webhook-failing',
      formId: 'form-1',
      webhookId: 'hook-1',
      since: new Date('2026-01-02T03:04:05.000Z'),
    });
    expect(smtp.messages).toHaveLength(1);
    const [mail] = smtp.messages;
    expect(mail.envelope.to).toEqual(['boss@example.com']);
    expect(mail.parsed.subject).toBe('Formgate: a webhook was turned off');
    expect(mail.parsed.text).toContain(
      'Every delivery to the webhook hook-1 of your form form-1 has failed since 2026-01-02T03:04:05.000Z',
    );
  });
});

describe('email channel without a reachable server (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      env: {
        ...MAIL_ENV,
        SMTP_URL: `smtp://u:topsecret@127.0.0.1:${await closedPort()}`,
      },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers a failed outcome instead of throwing, without the credentials', async () => {
    const { account } = await createAccount(t);
    const form = await createForm(t, account.id, { fields: FIELDS });
    await t.dataSource.getRepository(EmailRecipient).insert({
      id: 'r1',
      accountId: account.id,
      address: 'owner@example.com',
      status: 'confirmed',
      createdAt: new Date(),
    });
    await t.dataSource
      .getRepository('form')
      .update({ id: form.form.id }, { notifyEmails: ['owner@example.com'] });
    const row = await submit(t, form.form.id, { email: 'ada@example.com' });
    const outcome = await t.app
      .get(EmailChannel)
      .send(
        delivery(form, 'owner@example.com', row.id),
        notice(row, account.id),
        new AbortController().signal,
      );
    expect(outcome.ok).toBe(false);
    expect(outcome.final).toBeUndefined();
    expect(outcome.statusCode).toBeNull();
    expect(outcome.error).toMatch(/ECONNECTION|ECONNREFUSED/);
    expect(outcome.error).not.toContain('topsecret');
  });
});

describe('email channel with mail off (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('has no targets, and owner alerts become a warning in the log', async () => {
    const { account, apiKey } = await createAccount(t);
    const res = await request(`${t.url}/api/v1/forms`, {
      apiKey,
      json: { name: 'Quiet', notifyEmails: ['owner@example.com'] },
    });
    expect(res.status).toBe(201);
    expect(res.body.notifyEmailStatus).toEqual({
      'owner@example.com': 'pending',
    });
    // Kept, never mailed: a later save with mail on sends the link.
    expect(
      await t.dataSource
        .getRepository(EmailRecipient)
        .findOneBy({ accountId: account.id }),
    ).toMatchObject({
      status: 'pending',
      tokenHash: null,
      tokenExpiresAt: null,
    });
    expect(await t.app.get(EmailChannel).targetsFor(res.body.id)).toEqual([]);

    const warn = vi.spyOn(Logger.prototype, 'warn');
    try {
      await t.app.get<OwnerAlerts>(OWNER_ALERTS).alert(account.id, {
        type: 'webhook-failing',
        formId: 'form-1',
        webhookId: 'hook-1',
        since: new Date('2026-01-02T03:04:05.000Z'),
      });
      expect(warn).toHaveBeenCalledWith(
        expect.stringMatching(
          new RegExp(
            `^For the owner of account ${account.id}: Formgate: a webhook was turned off: Every delivery to the webhook hook-1 of your form form-1 has failed since 2026-01-02T03:04:05.000Z, so it was turned off\\. .*/dashboard/forms/form-1/notifications`,
          ),
        ),
      );
    } finally {
      warn.mockRestore();
    }
  });
});
