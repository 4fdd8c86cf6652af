// The autoresponder end to end, with a real SMTP server and a CAPTCHA provider stand-in on
// loopback: only on a form with a CAPTCHA; the mail goes to the address field of a
// submission that passed it, with the owner's words only and the headers of an automatic
// reply with one-click unsubscribe; spam, the honeypot and a replay send nothing; the
// unsubscribe page stops it; the caps per address (across accounts) and per account hold
// when many submissions race.
import { Delivery } from '../../../src/notifications/deliveries/delivery.entity.js';
import { createAccount } from '../../factories/accounts.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import {
  startCaptchaProvider,
  type CaptchaProviderServer,
} from '../../support/captcha-provider.js';
import { request } from '../../support/http.js';
import { waitFor } from '../../support/server-process.js';
import { TestSmtpServer } from '../../support/smtp-server.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

const SECRET_WORDS = 'Visitor-Secret-Words-7f3a';
const AUTORESPONSE = {
  enabled: true,
  emailField: 'email',
  subject: 'We got your message',
  text: 'Thank you for writing.\n\nWe answer within two working days.',
};

/** The one-click link of a raw message's List-Unsubscribe header. */
function unsubscribeLink(raw: string): string {
  const header = /(?:^|\r?\n)List-Unsubscribe: ?<([^>]+)>/.exec(
    raw.replace(/\r?\n[ \t]+/g, ' '),
  );
  expect(header, raw.slice(0, 1500)).not.toBeNull();
  return header![1];
}

describe('autoresponder (e2e)', () => {
  let t: TestApp;
  let smtp: TestSmtpServer;
  let provider: CaptchaProviderServer;
  let token = 0;

  beforeAll(async () => {
    smtp = await TestSmtpServer.start();
    provider = await startCaptchaProvider();
    t = await createTestApp({
      env: {
        ...provider.env,
        SMTP_URL: smtp.url,
        MAIL_FROM: 'Formgate <forms@example.com>',
        SUBMIT_RATE_LIMIT: '10000',
        WEBHOOK_RETRY_SCHEDULE: '0.2,0.2',
        AUTORESPONSE_DAILY_LIMIT: '4',
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await provider?.close();
    await smtp?.close();
  });

  const good = () => `good-${++token}-${'x'.repeat(30)}`;

  async function formWithAutoresponse(): Promise<TestForm> {
    const { account } = await createAccount(t);
    const form = await createForm(t, account.id);
    const res = await request(`${t.url}/api/v1/forms/${form.form.id}`, {
      method: 'PATCH',
      apiKey: form.apiKey,
      json: {
        captcha: {
          provider: 'turnstile',
          siteKey: 'site',
          secret: 'secret-turnstile',
          graceUntil: null,
        },
        autoresponse: AUTORESPONSE,
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.autoresponse).toEqual({ ...AUTORESPONSE, replyTo: null });
    return form;
  }

  const submit = (
    form: TestForm,
    body: Record<string, unknown>,
    headers: Record<string, string> = {},
  ) =>
    request(`${t.url}/api/submit/${form.form.id}`, {
      json: { name: SECRET_WORDS, message: SECRET_WORDS, ...body },
      headers,
    });

  /** Waits until every delivery of the form has settled (sent, or refused for good). */
  const settled = (form: TestForm, count: number) =>
    waitFor(
      async () => {
        const rows = await t.dataSource
          .getRepository(Delivery)
          .findBy({ formId: form.form.id, channel: 'autoresponse' });
        return (
          rows.length === count &&
          rows.every((r) => r.status === 'succeeded' || r.status === 'dead')
        );
      },
      10_000,
      `${count} settled autoresponse deliveries`,
    );

  it('refuses with 400 an autoresponse on a form without a CAPTCHA, or aimed at a field that is not an email field', async () => {
    const { account } = await createAccount(t);
    const form = await createForm(t, account.id);
    const url = `${t.url}/api/v1/forms/${form.form.id}`;
    const noCaptcha = await request(url, {
      method: 'PATCH',
      apiKey: form.apiKey,
      json: { autoresponse: AUTORESPONSE },
    });
    expect(noCaptcha.status).toBe(400);
    expect(noCaptcha.body.errors).toEqual([
      expect.stringMatching(
        /^autoresponse can be enabled only on a form with a CAPTCHA/,
      ),
    ]);
    const bad = await request(url, {
      method: 'PATCH',
      apiKey: form.apiKey,
      json: {
        captcha: { provider: 'altcha' },
        autoresponse: {
          ...AUTORESPONSE,
          emailField: 'name',
          subject: 'x'.repeat(151),
          replyTo: 'stranger@example.com',
        },
      },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual(
      expect.arrayContaining([
        'autoresponse.subject must be 1 to 150 characters long',
      ]),
    );
    const wrongField = await request(url, {
      method: 'PATCH',
      apiKey: form.apiKey,
      json: {
        captcha: { provider: 'altcha' },
        autoresponse: {
          ...AUTORESPONSE,
          emailField: 'name',
          replyTo: 'stranger@example.com',
        },
      },
    });
    expect(wrongField.status).toBe(400);
    expect(wrongField.body.errors).toEqual([
      "autoresponse.emailField must be the id of one of the form's email fields",
      'autoresponse.replyTo must be one of the form’s notifyEmails that has confirmed',
    ]);
    // On with a CAPTCHA; then the CAPTCHA cannot go while it is on.
    const on = await request(url, {
      method: 'PATCH',
      apiKey: form.apiKey,
      json: { captcha: { provider: 'altcha' }, autoresponse: AUTORESPONSE },
    });
    expect(on.status).toBe(200);
    const off = await request(url, {
      method: 'PATCH',
      apiKey: form.apiKey,
      json: { captcha: null },
    });
    expect(off.status).toBe(400);
    expect(off.body.errors[0]).toMatch(/only on a form with a CAPTCHA/);
  });

  it('mails the owner’s words only to the address field of a submission that passed the CAPTCHA, with the headers of an automatic reply', async () => {
    const form = await formWithAutoresponse();
    const before = smtp.messages.length;
    const res = await submit(form, {
      email: 'visitor1@example.com',
      'cf-turnstile-response': good(),
    });
    expect(res.status).toBe(200);
    await smtp.waitForMessages(before + 1);
    await settled(form, 1);
    const mail = smtp.messages[before];
    expect(mail.envelope.to).toEqual(['visitor1@example.com']);
    expect(mail.parsed.subject).toBe('We got your message');
    expect(mail.parsed.text).toContain('We answer within two working days.');
    expect(mail.raw).not.toContain(SECRET_WORDS);
    expect(mail.parsed.headers.get('auto-submitted')).toBe('auto-replied');
    expect(mail.raw).toMatch(
      /\nList-Unsubscribe-Post: List-Unsubscribe=One-Click\r?\n/,
    );
    const unsubscribe = unsubscribeLink(mail.raw);
    expect(unsubscribe).toMatch(
      new RegExp(`^${t.config.publicUrl}/unsubscribe/[^/]+$`),
    );
    // The address is kept nowhere but in the submission: the unsubscribe link holds a hash.
    expect(unsubscribe).not.toContain('visitor1');
  });

  it('sends nothing for a failed CAPTCHA, spam (provider down), the honeypot, or a replayed Idempotency-Key', async () => {
    const form = await formWithAutoresponse();
    const before = smtp.messages.length;
    const address = 'visitor2@example.com';
    expect(
      (await submit(form, { email: address, 'cf-turnstile-response': 'bad-1' }))
        .status,
    ).toBe(400);
    expect(
      (
        await submit(form, {
          email: address,
          'cf-turnstile-response': 'down-1',
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await submit(form, {
          email: address,
          _honeypot: 'bot',
          'cf-turnstile-response': good(),
        })
      ).status,
    ).toBe(200);
    const key = { 'idempotency-key': `autoresponse-${token}` };
    const body = { email: address, 'cf-turnstile-response': good() };
    expect((await submit(form, body, key)).status).toBe(200);
    const replay = await submit(form, body, key);
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    await smtp.waitForMessages(before + 1);
    await settled(form, 1);
    await new Promise((r) => setTimeout(r, 500));
    expect(smtp.messages.slice(before).map((m) => m.envelope.to)).toEqual([
      [address],
    ]);
  });

  it('stops after the unsubscribe link: GET shows a Stop button, the one-click POST stops it', async () => {
    const form = await formWithAutoresponse();
    const address = 'visitor3@example.com';
    const before = smtp.messages.length;
    await submit(form, { email: address, 'cf-turnstile-response': good() });
    await smtp.waitForMessages(before + 1);
    const link = unsubscribeLink(smtp.messages[before].raw).replace(
      t.config.publicUrl,
      t.url,
    );
    const page = await request(link);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.text).toContain('<button type="submit"');
    const stop = await request(link, {
      method: 'POST',
      form: { 'List-Unsubscribe': 'One-Click' },
    });
    expect(stop.status).toBe(200);
    expect(stop.text).toContain('Automatic replies stopped');
    const forged = await request(`${link.slice(0, -2)}xx`, { method: 'POST' });
    expect(forged.status).toBe(404);

    await submit(form, { email: address, 'cf-turnstile-response': good() });
    await settled(form, 2);
    const rows = await t.dataSource
      .getRepository(Delivery)
      .find({ where: { formId: form.form.id }, order: { id: 'ASC' } });
    expect(rows.map((r) => [r.status, r.lastError])).toEqual([
      ['succeeded', null],
      ['dead', 'The address asked for no more autoresponses'],
    ]);
    expect(smtp.to(address)).toHaveLength(1);
  });

  it('holds the caps under concurrency: 3 a day per address across accounts, AUTORESPONSE_DAILY_LIMIT per account', async () => {
    const forms = await Promise.all(
      [1, 2, 3, 4].map(() => formWithAutoresponse()),
    );
    const address = 'popular@example.com';
    const before = smtp.to(address).length;
    await Promise.all(
      forms.flatMap((form) =>
        [1, 2, 3].map(() =>
          submit(form, { email: address, 'cf-turnstile-response': good() }),
        ),
      ),
    );
    for (const form of forms) await settled(form, 3);
    expect(smtp.to(address).length - before).toBe(3);

    // One account, many addresses: AUTORESPONSE_DAILY_LIMIT (4 here).
    const [one] = forms;
    const sent = smtp.messages.length;
    const popularByOne = await t.dataSource
      .getRepository(Delivery)
      .countBy({ formId: one.form.id, status: 'succeeded' });
    await Promise.all(
      [1, 2, 3, 4, 5, 6].map((n) =>
        submit(one, {
          email: `many${n}@example.com`,
          'cf-turnstile-response': good(),
        }),
      ),
    );
    await settled(one, 9);
    // Whatever share of the 3 popular mails it sent, the account sent 4 in all today.
    const sentByOne = await t.dataSource
      .getRepository(Delivery)
      .countBy({ formId: one.form.id, status: 'succeeded' });
    expect(sentByOne).toBe(4);
    const manyMails = smtp.messages
      .slice(sent)
      .filter((m) => m.envelope.to[0].startsWith('many'));
    expect(manyMails.length).toBe(4 - popularByOne);
  }, 60_000);
});
