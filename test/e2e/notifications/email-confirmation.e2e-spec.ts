// Double opt-in, end to end: notifyEmails written through the API send one confirmation
// link (to a real SMTP server on loopback), opening the link confirms nothing, its Confirm
// button does, for every form of the account; unknown and expired links get clear pages.
import { createHash } from 'node:crypto';
import { Form } from '../../../src/forms/form.entity.js';
import { EmailRecipient } from '../../../src/notifications/email/email-recipient.entity.js';
import {
  EmailRecipientsService,
  MAX_CONFIRMATIONS_PER_DAY,
} from '../../../src/notifications/email/email-recipients.service.js';
import { CONFIRMATION_SUBJECT } from '../../../src/notifications/email/confirmation-mail.js';
import { createAccount, type TestAccount } from '../../factories/accounts.js';
import { textOf } from '../../support/dashboard-client.js';
import { request } from '../../support/http.js';
import { TestSmtpServer } from '../../support/smtp-server.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

const SMTP_PASSWORD = 's3cret/pa:ss';
const PUBLIC_URL = 'https://forms.example.test';
const LINK =
  /https:\/\/forms\.example\.test\/confirm-email\/([A-Za-z0-9_-]{43})/;

const sha256 = (value: string) =>
  createHash('sha256').update(value).digest('hex');

describe('email recipients: double opt-in (e2e)', () => {
  let smtp: TestSmtpServer;
  let t: TestApp;
  let owner: TestAccount;

  beforeAll(async () => {
    smtp = await TestSmtpServer.start({ user: 'mailer', pass: SMTP_PASSWORD });
    t = await createTestApp({
      env: {
        SMTP_URL: smtp.url,
        MAIL_FROM: 'Formgate <forms@example.com>',
        PUBLIC_URL: `${PUBLIC_URL}/`,
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });
  beforeEach(async () => {
    owner = await createAccount(t);
  });

  const forms = () => `${t.url}/api/v1/forms`;
  const settled = () => t.app.get(EmailRecipientsService).settled();
  const recipientRow = (address: string, accountId = owner.account.id) =>
    t.dataSource
      .getRepository(EmailRecipient)
      .findOneByOrFail({ accountId, address });

  async function createWithRecipients(notifyEmails: string[], name = 'Leads') {
    const res = await request(forms(), {
      apiKey: owner.apiKey,
      json: { name, notifyEmails },
    });
    expect(res.status).toBe(201);
    return res.body as {
      id: string;
      notifyEmails: string[];
      notifyEmailStatus: Record<string, string>;
    };
  }

  function tokenOf(mail: { parsed: { text?: string } }): string {
    const match = LINK.exec(mail.parsed.text ?? '');
    expect(match, 'the message carries the confirmation link').not.toBeNull();
    return match![1];
  }

  it('mails one link to a new address, confirms nothing on GET, and confirms every form on POST', async () => {
    const address = `ada-${owner.account.id.toLowerCase()}@example.com`;
    const first = await createWithRecipients([`  ${address.toUpperCase()} `]);
    expect(first.notifyEmails).toEqual([address]);
    expect(first.notifyEmailStatus).toEqual({ [address]: 'pending' });
    await settled();

    const [mail, ...others] = smtp.to(address);
    expect(others).toEqual([]);
    expect(mail.envelope).toEqual({ from: 'forms@example.com', to: [address] });
    expect(mail.parsed.subject).toBe(CONFIRMATION_SUBJECT);
    expect(mail.parsed.from?.value).toEqual([
      { name: 'Formgate', address: 'forms@example.com' },
    ]);
    expect(mail.parsed.replyTo).toBeUndefined();
    const token = tokenOf(mail);
    expect(mail.parsed.html).toContain(`${PUBLIC_URL}/confirm-email/${token}`);
    // Nothing the account owner wrote reaches the stranger's inbox.
    expect(mail.raw).not.toContain('Leads');

    const row = await recipientRow(address);
    expect(row).toMatchObject({
      status: 'pending',
      tokenHash: sha256(token),
      confirmedAt: null,
    });
    const weekMs = 7 * 24 * 3600 * 1000;
    expect(row.tokenExpiresAt!.getTime() - Date.now()).toBeGreaterThan(
      weekMs - 60_000,
    );
    expect(row.tokenExpiresAt!.getTime() - Date.now()).toBeLessThanOrEqual(
      weekMs,
    );

    // Saving again, and listing it on a second form, sends nothing more.
    const again = await request(`${forms()}/${first.id}`, {
      method: 'PATCH',
      apiKey: owner.apiKey,
      json: { name: 'Leads again', notifyEmails: [address] },
    });
    expect(again.status).toBe(200);
    const second = await createWithRecipients([address], 'Support');
    await settled();
    expect(smtp.to(address)).toHaveLength(1);

    // Opening the link (what a mail scanner does) shows a button and confirms nothing.
    const page = await request(`${t.url}/confirm-email/${token}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('content-security-policy')).toContain(
      "form-action 'self'",
    );
    expect(page.text).toContain(
      `<form method="post" action="/confirm-email/${token}"`,
    );
    expect(textOf(page.text)).toContain('Confirm this address');
    expect(textOf(page.text)).not.toContain('Log in');
    expect((await recipientRow(address)).status).toBe('pending');
    const stillPending = await request(`${forms()}/${second.id}`, {
      apiKey: owner.apiKey,
    });
    expect(stillPending.body.notifyEmailStatus).toEqual({
      [address]: 'pending',
    });

    const done = await request(`${t.url}/confirm-email/${token}`, {
      method: 'POST',
      form: {},
    });
    expect(done.status).toBe(200);
    expect(textOf(done.text)).toContain('Address confirmed');
    const confirmed = await recipientRow(address);
    expect(confirmed.status).toBe('confirmed');
    expect(confirmed.confirmedAt).toBeInstanceOf(Date);

    const listed = await request(forms(), { apiKey: owner.apiKey });
    expect(
      listed.body.data.map(
        (form: { notifyEmailStatus: Record<string, string> }) =>
          form.notifyEmailStatus,
      ),
    ).toEqual([{ [address]: 'confirmed' }, { [address]: 'confirmed' }]);

    // The link keeps saying so, and still mails nothing.
    const revisit = await request(`${t.url}/confirm-email/${token}`);
    expect(revisit.status).toBe(200);
    expect(textOf(revisit.text)).toContain('already receives');
    await settled();
    expect(smtp.to(address)).toHaveLength(1);
  });

  it('confirms an address for its own account only', async () => {
    const address = `shared-${owner.account.id.toLowerCase()}@example.com`;
    const other = await createAccount(t);
    await createWithRecipients([address]);
    const theirs = await request(forms(), {
      apiKey: other.apiKey,
      json: { name: 'Theirs', notifyEmails: [address] },
    });
    expect(theirs.status).toBe(201);
    await settled();
    // One link per account: each owner's list needs its own confirmation.
    const mails = smtp.to(address);
    expect(mails).toHaveLength(2);
    const tokens = mails.map(tokenOf);
    const mine = (await recipientRow(address)).tokenHash;
    const myToken = tokens.find((token) => sha256(token) === mine)!;

    const done = await request(`${t.url}/confirm-email/${myToken}`, {
      method: 'POST',
      form: {},
    });
    expect(done.status).toBe(200);
    expect((await recipientRow(address)).status).toBe('confirmed');
    expect((await recipientRow(address, other.account.id)).status).toBe(
      'pending',
    );
    const read = await request(`${forms()}/${theirs.body.id}`, {
      apiKey: other.apiKey,
    });
    expect(read.body.notifyEmailStatus).toEqual({ [address]: 'pending' });
  });

  it('answers 404 pages for unknown or malformed links', async () => {
    for (const token of ['A'.repeat(43), 'short', '%3Cscript%3E']) {
      for (const method of ['GET', 'POST']) {
        const res = await request(`${t.url}/confirm-email/${token}`, {
          method,
          ...(method === 'POST' ? { form: {} } : {}),
        });
        expect(res.status, `${method} ${token}`).toBe(404);
        expect(res.headers.get('content-type')).toMatch(/^text\/html/);
        expect(textOf(res.text)).toContain(
          'This confirmation link is not valid',
        );
        expect(res.text).not.toContain('<script>');
      }
    }
  });

  it('answers 410 to an expired link, confirms nothing, and mails a fresh link on the next save', async () => {
    const address = `late-${owner.account.id.toLowerCase()}@example.com`;
    const form = await createWithRecipients([address]);
    await settled();
    const oldToken = tokenOf(smtp.to(address)[0]);
    await t.dataSource
      .getRepository(EmailRecipient)
      .update(
        { accountId: owner.account.id, address },
        { tokenExpiresAt: new Date(Date.now() - 1000) },
      );

    for (const method of ['GET', 'POST']) {
      const res = await request(`${t.url}/confirm-email/${oldToken}`, {
        method,
        ...(method === 'POST' ? { form: {} } : {}),
      });
      expect(res.status).toBe(410);
      expect(textOf(res.text)).toContain('This confirmation link has expired');
    }
    expect((await recipientRow(address)).status).toBe('pending');

    const saved = await request(`${forms()}/${form.id}`, {
      method: 'PUT',
      apiKey: owner.apiKey,
      json: { name: 'Leads', notifyEmails: [address] },
    });
    expect(saved.status).toBe(200);
    await settled();
    const mails = smtp.to(address);
    expect(mails).toHaveLength(2);
    const newToken = tokenOf(mails[1]);
    expect(newToken).not.toBe(oldToken);
    expect((await recipientRow(address)).tokenHash).toBe(sha256(newToken));
    const stale = await request(`${t.url}/confirm-email/${oldToken}`);
    expect(stale.status).toBe(404);
    const done = await request(`${t.url}/confirm-email/${newToken}`, {
      method: 'POST',
      form: {},
    });
    expect(done.status).toBe(200);
    expect((await recipientRow(address)).status).toBe('confirmed');
  });

  it('keeps no link the server refused, and sends it on the next save', async () => {
    const address = `bounce-${owner.account.id.toLowerCase()}@example.com`;
    smtp.refusedRecipients.add(address);
    let form: { id: string };
    try {
      form = await createWithRecipients([address]);
      await settled();
    } finally {
      smtp.refusedRecipients.delete(address);
    }
    expect(smtp.to(address)).toEqual([]);
    expect(await recipientRow(address)).toMatchObject({
      status: 'pending',
      tokenHash: null,
      tokenExpiresAt: null,
    });
    expect(t.logs.join('\n')).toContain(
      `Could not send the confirmation link to ${address}`,
    );

    const saved = await request(`${forms()}/${form.id}`, {
      method: 'PATCH',
      apiKey: owner.apiKey,
      json: { notifyEmails: [address] },
    });
    expect(saved.status).toBe(200);
    await settled();
    const [mail] = smtp.to(address);
    expect((await recipientRow(address)).tokenHash).toBe(sha256(tokenOf(mail)));
  });

  it('sends one account at most 30 links a day; the others wait for a later save', async () => {
    const tag = owner.account.id.toLowerCase();
    const before = smtp.messages.length;
    for (let form = 0; form < 4; form++) {
      await createWithRecipients(
        Array.from(
          { length: 10 },
          (_, i) => `n${form}-${i}-${tag}@example.com`,
        ),
        `Form ${form}`,
      );
    }
    await settled();
    expect(smtp.messages.length - before).toBe(MAX_CONFIRMATIONS_PER_DAY);
    const rows = await t.dataSource
      .getRepository(EmailRecipient)
      .findBy({ accountId: owner.account.id });
    expect(rows).toHaveLength(40);
    expect(rows.filter((row) => row.tokenHash === null)).toHaveLength(10);
    expect(t.logs.join('\n')).toContain(
      `Account ${owner.account.id} had 30 confirmation links sent today`,
    );
  });

  it('refuses bad recipient lists with one clear message each, storing nothing', async () => {
    const form = await createWithRecipients([]);
    const eleven = Array.from({ length: 11 }, (_, i) => `r${i}@example.com`);
    const cases: Array<[unknown, string]> = [
      ['a@example.com', 'notifyEmails must be an array of email addresses'],
      [eleven, 'notifyEmails must have at most 10 addresses'],
      [['ok@example.com', 42], 'each entry of notifyEmails must be a string'],
      [
        ['ok@example.com', 'not an address'],
        'notifyEmails.1 must be a valid email address (got "not an address")',
      ],
      [
        ['x@example.com\r\nBcc: victim@example.org'],
        'notifyEmails.0 must be a valid email address (got "x@example.com\\r\\nbcc: victim@example.org")',
      ],
      [
        ['Dup@Example.com', 'dup@example.com'],
        'notifyEmails must list each address once, but "dup@example.com" appears more than once',
      ],
      [null, 'notifyEmails must be an array of email addresses'],
    ];
    for (const [notifyEmails, message] of cases) {
      const res = await request(`${forms()}/${form.id}`, {
        method: 'PATCH',
        apiKey: owner.apiKey,
        json: { notifyEmails },
      });
      expect(res.status, JSON.stringify(notifyEmails)).toBe(400);
      expect(res.body).toEqual({
        error: 'Validation failed',
        errors: [message],
      });
    }
    const stored = await t.dataSource
      .getRepository(Form)
      .findOneByOrFail({ id: form.id });
    expect(stored.notifyEmails).toEqual([]);
    expect(
      await t.dataSource
        .getRepository(EmailRecipient)
        .countBy({ accountId: owner.account.id }),
    ).toBe(0);
  });

  it('documents notifyEmails and notifyEmailStatus in the OpenAPI document', async () => {
    const doc = (await request(`${t.url}/docs-json`)).body;
    const { CreateFormDto, FormResponseDto } = doc.components.schemas;
    expect(CreateFormDto.properties.notifyEmails).toMatchObject({
      type: 'array',
      items: { type: 'string' },
      maxItems: 10,
    });
    expect(FormResponseDto.required).toEqual(
      expect.arrayContaining(['notifyEmails', 'notifyEmailStatus']),
    );
    expect(FormResponseDto.properties.notifyEmailStatus).toMatchObject({
      type: 'object',
      additionalProperties: { type: 'string', enum: ['confirmed', 'pending'] },
    });
    expect(doc.paths['/confirm-email/{token}']).toBeUndefined();
  });

  it('never writes the SMTP credentials to the log', async () => {
    await createWithRecipients([
      `log-${owner.account.id.toLowerCase()}@example.com`,
    ]);
    await settled();
    const log = t.logs.join('\n');
    expect(log).toContain(`Sending mail through smtp://127.0.0.1:${smtp.port}`);
    expect(log).not.toContain(SMTP_PASSWORD);
    expect(log).not.toContain(encodeURIComponent(SMTP_PASSWORD));
  });
});
