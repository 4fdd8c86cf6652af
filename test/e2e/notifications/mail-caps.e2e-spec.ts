// The caps on confirmation mail hold under concurrency, on SQLite and on MySQL/MariaDB
// alike (each is one conditional UPDATE): an account gets at most 30 links a day, an
// address at most 3 a day whichever accounts name it, and none for 30 days after 3 went
// unanswered. Every message is counted where it lands: a real SMTP server on loopback.
// Rows that cap nothing any more (last mail 30 days ago) are swept.
import { EmailRecipient } from '../../../src/notifications/email/email-recipient.entity.js';
import { EmailRecipientsService } from '../../../src/notifications/email/email-recipients.service.js';
import { MailQuota } from '../../../src/notifications/email/mail-quota.entity.js';
import { MailQuotaSweep } from '../../../src/notifications/email/mail-quota-sweep.js';
import { SweepsService } from '../../../src/sweeps/sweeps.service.js';
import { createAccount, type TestAccount } from '../../factories/accounts.js';
import { request } from '../../support/http.js';
import { TestSmtpServer } from '../../support/smtp-server.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

const LINK = /\/confirm-email\/([A-Za-z0-9_-]{43})/;
const DAY_MS = 24 * 3600 * 1000;

describe('confirmation mail caps (e2e)', () => {
  let smtp: TestSmtpServer;
  let t: TestApp;

  beforeAll(async () => {
    smtp = await TestSmtpServer.start();
    t = await createTestApp({
      env: {
        SMTP_URL: smtp.url,
        MAIL_FROM: 'forms@example.com',
        PUBLIC_URL: 'https://forms.example.test',
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const settled = () => t.app.get(EmailRecipientsService).settled();
  const quota = (subject: string) =>
    t.dataSource.getRepository(MailQuota).findOneBy({ subject });

  async function createForm(owner: TestAccount, notifyEmails: string[] = []) {
    const res = await request(`${t.url}/api/v1/forms`, {
      apiKey: owner.apiKey,
      json: { name: 'Leads', notifyEmails },
    });
    expect(res.status).toBe(201);
    return res.body as { id: string };
  }

  it('sends one account at most 30 links a day when 10 PATCHes of 10 new addresses race', async () => {
    const owner = await createAccount(t);
    const tag = owner.account.id.toLowerCase();
    const forms = [];
    for (let i = 0; i < 10; i++) forms.push(await createForm(owner));
    const before = smtp.messages.length;

    const answers = await Promise.all(
      forms.map((form, f) =>
        request(`${t.url}/api/v1/forms/${form.id}`, {
          method: 'PATCH',
          apiKey: owner.apiKey,
          json: {
            notifyEmails: Array.from(
              { length: 10 },
              (_, i) => `race${f}-${i}-${tag}@example.com`,
            ),
          },
        }),
      ),
    );
    expect(answers.map((res) => res.status)).toEqual(Array(10).fill(200));
    await settled();

    const mailed = smtp.messages.slice(before);
    expect(mailed).toHaveLength(30);
    expect(new Set(mailed.map((mail) => mail.envelope.to[0])).size).toBe(30);
    expect(await quota(`account:${owner.account.id}`)).toMatchObject({
      usedOnDay: 30,
    });
    const rows = await t.dataSource
      .getRepository(EmailRecipient)
      .findBy({ accountId: owner.account.id });
    expect(rows).toHaveLength(100);
    // Exactly the 30 that were mailed hold a link; the others wait for a later save.
    expect(rows.filter((row) => row.tokenHash !== null)).toHaveLength(30);
    expect(
      new Set(
        rows.filter((row) => row.tokenHash !== null).map((row) => row.address),
      ),
    ).toEqual(new Set(mailed.map((mail) => mail.envelope.to[0])));
  });

  it('mails a stranger named by 4 accounts at most 3 times a day, and then leaves them alone for 30 days', async () => {
    const owners = [];
    for (let i = 0; i < 5; i++) owners.push(await createAccount(t));
    const stranger = `stranger-${owners[0].account.id.toLowerCase()}@example.org`;
    const subject = `address:${stranger}`;

    await Promise.all(
      owners.slice(0, 4).map((owner) => createForm(owner, [stranger])),
    );
    await settled();
    expect(smtp.to(stranger)).toHaveLength(3);
    expect(await quota(subject)).toMatchObject({
      usedOnDay: 3,
      unanswered: 3,
    });
    const rows = await t.dataSource
      .getRepository(EmailRecipient)
      .findBy({ address: stranger });
    expect(rows).toHaveLength(4);
    expect(rows.filter((row) => row.tokenHash === null)).toHaveLength(1);
    expect(t.logs.join('\n')).toContain(
      `${stranger} was sent as many confirmation links as it may receive for now`,
    );

    // A day later the daily cap has passed, but 3 links went unanswered: nothing for 30 days.
    const repo = t.dataSource.getRepository(MailQuota);
    await repo.update(
      { subject },
      { day: '2000-01-01', lastSentAt: new Date(Date.now() - DAY_MS) },
    );
    await createForm(owners[4], [stranger]);
    await settled();
    expect(smtp.to(stranger)).toHaveLength(3);

    // 30 days after the last one, one more may go (a fresh count starts).
    await repo.update(
      { subject },
      { lastSentAt: new Date(Date.now() - 30 * DAY_MS - 60_000) },
    );
    await createForm(owners[4], [stranger]);
    await settled();
    const mails = smtp.to(stranger);
    expect(mails).toHaveLength(4);
    expect(await quota(subject)).toMatchObject({ usedOnDay: 1, unanswered: 1 });

    // Confirming answers the address: the unanswered count starts again.
    const token = LINK.exec(mails[3].parsed.text ?? '')![1];
    const done = await request(`${t.url}/confirm-email/${token}`, {
      method: 'POST',
      form: {},
    });
    expect(done.status).toBe(200);
    expect(await quota(subject)).toMatchObject({ unanswered: 0 });
  });

  it('sweeps the rows whose last mail went out 30 days ago, and a swept address is capped afresh', async () => {
    const repo = t.dataSource.getRepository(MailQuota);
    const owner = await createAccount(t);
    const tag = owner.account.id.toLowerCase();
    const old = new Date(Date.now() - 30 * DAY_MS - 60_000);
    const recent = new Date(Date.now() - 29 * DAY_MS);
    await repo.insert([
      ...Array.from({ length: 120 }, (_, i) => ({
        subject: `address:old${i}-${tag}@example.org`,
        day: '2000-01-01',
        usedOnDay: 3,
        unanswered: 3,
        lastSentAt: old,
      })),
      {
        subject: `address:recent-${tag}@example.org`,
        day: '2000-01-01',
        usedOnDay: 3,
        unanswered: 3,
        lastSentAt: recent,
      },
      {
        subject: `address:never-${tag}@example.org`,
        day: '',
        usedOnDay: 0,
        unanswered: 0,
        lastSentAt: null,
      },
    ]);

    const counts = await t.app.get(SweepsService).runAll();
    expect(counts['mail-quotas'].quotas).toBeGreaterThanOrEqual(120);
    const left = await repo.find({ select: { subject: true } });
    const subjects = left
      .map((row) => row.subject)
      .filter((s) => s.includes(tag));
    expect(subjects.sort()).toEqual([
      `address:never-${tag}@example.org`,
      `address:recent-${tag}@example.org`,
    ]);
    expect(t.logs.join('\n')).toMatch(
      /Sweep \\"mail-quotas\\" deleted \d+ quotas/,
    );

    // The address still in its quiet month gets nothing; a swept one starts a fresh count.
    await createForm(owner, [
      `recent-${tag}@example.org`,
      `old7-${tag}@example.org`,
    ]);
    await settled();
    expect(smtp.to(`recent-${tag}@example.org`)).toHaveLength(0);
    expect(smtp.to(`old7-${tag}@example.org`)).toHaveLength(1);
    expect(await quota(`address:old7-${tag}@example.org`)).toMatchObject({
      usedOnDay: 1,
      unanswered: 1,
    });
    expect(await t.app.get(MailQuotaSweep).sweepOnce()).toEqual({ quotas: 0 });
  });
});
