// Content rules and the spam folder end to end: what the rules catch is stored in the
// folder and answered like any other submission, but never notified; lists and exports
// leave the folder out unless asked for it; "Not spam" notifies a submission then, once,
// with a signed webhook a real receiver verifies; old spam is swept away.
import { Delivery } from '../../../src/notifications/deliveries/delivery.entity.js';
import { Submission } from '../../../src/submissions/submission.entity.js';
import { SpamRetentionSweep } from '../../../src/spam/spam-retention-sweep.js';
import { SweepsService } from '../../../src/sweeps/sweeps.service.js';
import { FormSpamStat } from '../../../src/spam/form-spam-stat.entity.js';
import { utcDay } from '../../../src/spam/turned-away.js';
import { UsedCaptchaToken } from '../../../src/spam/used-captcha-token.entity.js';
import { createAccount } from '../../factories/accounts.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import { insertSubmissions } from '../../factories/submissions.js';
import { SUBMISSION_NOT_FOUND } from '../../support/errors.js';
import { DEFAULT_SPAM_FILTER } from '../../support/forms-api.js';
import { request } from '../../support/http.js';
import { waitFor } from '../../support/server-process.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import {
  addReceiverWebhook,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../support/webhook-receiver.js';

const RECEIVED = { success: true, message: 'Submission received' };
const DAY = 86_400_000;

describe('content rules and the spam folder (e2e)', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let form: TestForm;

  beforeAll(async () => {
    t = await createTestApp({
      env: {
        WEBHOOK_ALLOW_PRIVATE: 'true',
        SUBMIT_RATE_LIMIT: '1000',
        TRUST_PROXY: '1',
        SWEEP_INTERVAL_SECONDS: '0',
      },
    });
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await t?.close();
  });
  beforeEach(async () => {
    const { account } = await createAccount(t);
    form = await createForm(t, account.id);
  });

  const api = (path = '') => `${t.url}/api/v1/forms/${form.form.id}${path}`;
  const submit = (json: Record<string, unknown>, ip = '203.0.113.10') =>
    request(`${t.url}/api/submit/${form.form.id}`, {
      json,
      headers: { 'x-forwarded-for': ip },
    });
  const stored = () =>
    t.dataSource
      .getRepository(Submission)
      .find({ where: { formId: form.form.id }, order: { id: 'ASC' } });
  const deliveriesOf = (submissionId: string) =>
    t.dataSource.getRepository(Delivery).findBy({ submissionId });
  const patchFilter = async (spamFilter: Record<string, unknown>) => {
    const res = await request(api(), {
      method: 'PATCH',
      apiKey: form.apiKey,
      json: { spamFilter },
    });
    expect(res.status).toBe(200);
    return res;
  };
  async function addWebhook(): Promise<void> {
    await addReceiverWebhook(t, form, receiver);
  }

  const person = { name: 'Ada', email: 'ada@example.com' };

  describe('the form property spamFilter', () => {
    it('has the defaults on a new form, and PATCH changes only what it sends', async () => {
      const read = await request(api(), { apiKey: form.apiKey });
      expect(read.body.spamFilter).toEqual(DEFAULT_SPAM_FILTER);

      const patched = await patchFilter({
        blockedWords: ['  Casino ', 'cheap pills'],
      });
      expect(patched.body.spamFilter).toEqual({
        ...DEFAULT_SPAM_FILTER,
        blockedWords: ['Casino', 'cheap pills'],
      });
      const again = await patchFilter({ duplicates: true });
      expect(again.body.spamFilter).toEqual({
        enabled: true,
        maxLinks: 5,
        blockedWords: ['Casino', 'cheap pills'],
        duplicates: true,
      });
      const [row] = await t.dataSource.query(
        'SELECT spamFilter FROM form WHERE id = ?',
        [form.form.id],
      );
      const column = row.spamFilter as unknown;
      expect(typeof column === 'string' ? JSON.parse(column) : column).toEqual(
        again.body.spamFilter,
      );
    });

    it('takes the defaults for what PUT leaves out', async () => {
      await patchFilter({ maxLinks: 1, duplicates: true });
      const res = await request(api(), {
        method: 'PUT',
        apiKey: form.apiKey,
        json: { name: 'Replaced', spamFilter: { blockedWords: ['spam'] } },
      });
      expect(res.status).toBe(200);
      expect(res.body.spamFilter).toEqual({
        ...DEFAULT_SPAM_FILTER,
        blockedWords: ['spam'],
      });
    });

    it('refuses bad values with one message each', async () => {
      const res = await request(api(), {
        method: 'PATCH',
        apiKey: form.apiKey,
        json: {
          spamFilter: {
            enabled: 'yes',
            maxLinks: -1,
            blockedWords: ['', 'x'.repeat(101)],
            duplicates: 1,
            other: true,
          },
        },
      });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('Validation failed');
      expect(res.body.errors).toEqual([
        'property spamFilter.other should not exist',
        'spamFilter.enabled must be true or false',
        'spamFilter.maxLinks must be at least 0',
        'each entry of spamFilter.blockedWords must be 1 to 100 characters long',
        'spamFilter.duplicates must be true or false',
      ]);
      const read = await request(api(), { apiKey: form.apiKey });
      expect(read.body.spamFilter).toEqual(DEFAULT_SPAM_FILTER);
    });
  });

  describe('the rules', () => {
    it('stores a post with too many links as spam, answers it like any other and notifies nobody', async () => {
      await addWebhook();
      const links = 'http://a.example https://b.example www.c.example';
      await patchFilter({ maxLinks: 2 });
      const spam = await submit({ ...person, message: links });
      expect(spam.status).toBe(200);
      expect(spam.body).toEqual(RECEIVED);
      // Bare domains and addresses are not links; https://www. counts once.
      const clean = await submit({
        ...person,
        message: 'example.com, me@www.example.com, https://www.example.com',
      });
      expect(clean.status).toBe(200);
      const rows = await stored();
      expect(rows.map((r) => [r.spam, r.spamReasons])).toEqual([
        [true, ['too-many-links']],
        [false, null],
      ]);
      // The clean one is notified (the worker expands its outbox event); the spam never.
      await waitFor(
        async () => (await deliveriesOf(rows[1].id)).length === 1,
        10_000,
        'the delivery of the clean submission',
      );
      expect(await deliveriesOf(rows[0].id)).toEqual([]);
    });

    it('catches a blocked word as a whole word, in any case', async () => {
      await patchFilter({ blockedWords: ['casino'] });
      expect(
        (await submit({ ...person, message: 'Visit our CASINO!' })).status,
      ).toBe(200);
      expect(
        (await submit({ ...person, message: 'Occasional casinos' })).status,
      ).toBe(200);
      expect((await stored()).map((r) => r.spamReasons)).toEqual([
        ['blocked-word'],
        null,
      ]);
    });

    it('catches the same data from the same IP within 10 minutes only when duplicates is on', async () => {
      const post = { ...person, message: 'same' };
      expect((await submit(post)).status).toBe(200);
      expect((await submit(post)).status).toBe(200);
      await patchFilter({ duplicates: true });
      // Keys in another order are the same data; another IP is another sender.
      expect((await submit({ message: 'same', ...person })).status).toBe(200);
      expect((await submit(post, '203.0.113.99')).status).toBe(200);
      expect((await submit({ ...post, message: 'other' })).status).toBe(200);
      expect((await stored()).map((r) => r.spamReasons)).toEqual([
        null,
        null,
        ['duplicate'],
        null,
        null,
      ]);
    });

    it('lets everything through when the filter is off', async () => {
      await patchFilter({ enabled: false, maxLinks: 0, blockedWords: ['x'] });
      expect(
        (await submit({ ...person, message: 'x www.a.example' })).status,
      ).toBe(200);
      expect((await stored()).map((r) => r.spam)).toEqual([false]);
    });
  });

  describe('the folder', () => {
    it('leaves spam out of lists and exports unless spam=true, and then shows only spam', async () => {
      const now = Date.now();
      const [clean, caught] = await insertSubmissions(t, form.form.id, [
        { createdAt: new Date(now - 2000) },
        { createdAt: new Date(now - 1000), spamReasons: ['blocked-word'] },
      ]);
      const list = await request(api('/submissions'), { apiKey: form.apiKey });
      expect(list.body.data.map((s: { id: string }) => s.id)).toEqual([
        clean.id,
      ]);
      expect(list.body.data[0]).toMatchObject({ spam: false, spamReasons: [] });
      const folder = await request(api('/submissions?spam=true'), {
        apiKey: form.apiKey,
      });
      expect(folder.body.data).toEqual([
        expect.objectContaining({
          id: caught.id,
          spam: true,
          spamReasons: ['blocked-word'],
        }),
      ]);
      const csv = await request(api('/submissions/export'), {
        apiKey: form.apiKey,
      });
      expect(
        csv.text
          .trim()
          .split('\r\n')
          .slice(1)
          .map((l) => l.split(',')[0]),
      ).toEqual([clean.id]);
      const ndjson = await request(
        api('/submissions/export?format=ndjson&spam=true'),
        { apiKey: form.apiKey },
      );
      const lines = ndjson.text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(lines).toEqual([
        expect.objectContaining({
          id: caught.id,
          spam: true,
          spamReasons: ['blocked-word'],
        }),
      ]);
      const bad = await request(api('/submissions?spam=maybe'), {
        apiKey: form.apiKey,
      });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({
        error: 'Validation failed',
        errors: ['spam must be true or false'],
      });
    });

    it('moves a submission in and out, and out of spam notifies it once with a signed webhook', async () => {
      await addWebhook();
      await patchFilter({ blockedWords: ['casino'] });
      expect(
        (await submit({ ...person, message: 'casino night' })).status,
      ).toBe(200);
      const [row] = await stored();
      expect(row.spam).toBe(true);
      expect(await deliveriesOf(row.id)).toEqual([]);

      const url = api(`/submissions/${row.id}`);
      const successes = receiver.received.filter(
        (r) => r.verified !== null && r.answered < 300,
      ).length;
      const released = await request(url, {
        method: 'PATCH',
        apiKey: form.apiKey,
        json: { spam: false },
      });
      expect(released.status).toBe(200);
      expect(released.body).toMatchObject({
        id: row.id,
        spam: false,
        spamReasons: [],
        data: { ...person, message: 'casino night' },
      });
      await receiver.waitForSuccesses(successes + 1);
      const delivered = receiver.received.find(
        (r) =>
          (r.verified as { data?: { submissionId?: string } } | null)?.data
            ?.submissionId === row.id,
      )!;
      expect(delivered.verified).toMatchObject({
        type: 'submission.created',
        data: {
          formId: form.form.id,
          submissionId: row.id,
          data: { ...person, message: 'casino night' },
        },
      });

      // Repeated, and after a round trip through the folder: still one delivery.
      for (const spam of [false, true, false, false]) {
        const again = await request(url, {
          method: 'PATCH',
          apiKey: form.apiKey,
          json: { spam },
        });
        expect(again.status).toBe(200);
        expect(again.body.spam).toBe(spam);
        expect(again.body.spamReasons).toEqual(spam ? ['marked-by-owner'] : []);
      }
      const deliveries = await deliveriesOf(row.id);
      expect(deliveries).toHaveLength(1);
      expect(deliveries[0].status).toBe('succeeded');
      const [after] = await stored();
      expect([after.spam, after.spamReasons]).toEqual([false, null]);
    });

    it('creates one set of notifications when releases race', async () => {
      await addWebhook();
      const [row] = await insertSubmissions(t, form.form.id, [
        { createdAt: new Date(), spamReasons: ['duplicate'] },
      ]);
      const answers = await Promise.all(
        Array.from({ length: 8 }, () =>
          request(api(`/submissions/${row.id}`), {
            method: 'PATCH',
            apiKey: form.apiKey,
            json: { spam: false },
          }),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
      await waitFor(
        async () => (await deliveriesOf(row.id)).length > 0,
        10_000,
        'the delivery of the released submission',
      );
      expect(await deliveriesOf(row.id)).toHaveLength(1);
    });

    it('answers 404 for an unknown submission and 400 for a bad body', async () => {
      const unknown = await request(
        api('/submissions/01JUNKNOWN0000000000000000'),
        {
          method: 'PATCH',
          apiKey: form.apiKey,
          json: { spam: false },
        },
      );
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual(SUBMISSION_NOT_FOUND);
      const [row] = await insertSubmissions(t, form.form.id, [
        { createdAt: new Date() },
      ]);
      for (const json of [{}, { spam: 'no' }, { spam: false, data: {} }]) {
        const bad = await request(api(`/submissions/${row.id}`), {
          method: 'PATCH',
          apiKey: form.apiKey,
          json,
        });
        expect(bad.status).toBe(400);
        expect(bad.body.error).toBe('Validation failed');
      }
      const [after] = await stored();
      expect(after.spam).toBe(false);
    });

    it('is the "spam" background sweep', async () => {
      const results = await t.app.get(SweepsService).runAll();
      expect(Object.keys(results)).toContain('spam');
      expect(results.spam).toEqual({
        submissions: expect.any(Number),
        captchaAnswers: expect.any(Number),
        dailyCounts: expect.any(Number),
      });
    });

    it('deletes spam older than SPAM_RETENTION_DAYS and keeps the rest', async () => {
      const now = Date.now();
      const rows = await insertSubmissions(t, form.form.id, [
        { createdAt: new Date(now - 31 * DAY), spamReasons: ['blocked-word'] },
        { createdAt: new Date(now - 29 * DAY), spamReasons: ['blocked-word'] },
        { createdAt: new Date(now - 90 * DAY) },
      ]);
      const deleted = await t.app.get(SpamRetentionSweep).sweepOnce(now);
      expect(deleted.submissions).toBe(1);
      expect((await stored()).map((r) => r.id).sort()).toEqual(
        [rows[1].id, rows[2].id].sort(),
      );
    });

    it('forgets used CAPTCHA answers once they have expired, and old daily counts', async () => {
      const now = Date.now();
      const tokens = t.dataSource.getRepository(UsedCaptchaToken);
      await tokens.insert([
        { id: 'e'.repeat(64), expiresAt: new Date(now - 1000), claim: 'c' },
        { id: 'f'.repeat(64), expiresAt: new Date(now + 60_000), claim: 'c' },
      ]);
      const stats = t.dataSource.getRepository(FormSpamStat);
      await stats.insert([
        {
          formId: form.form.id,
          day: utcDay(now - 61 * DAY),
          honeypot: 3,
          captcha: 1,
        },
        {
          formId: form.form.id,
          day: utcDay(now - 29 * DAY),
          honeypot: 2,
          captcha: 0,
        },
      ]);
      const counts = await t.app.get(SpamRetentionSweep).sweepOnce(now);
      expect(counts.captchaAnswers).toBeGreaterThanOrEqual(1);
      expect(counts.dailyCounts).toBe(1);
      expect((await tokens.find()).map((row) => row.id)).toContain(
        'f'.repeat(64),
      );
      expect(await tokens.findOneBy({ id: 'e'.repeat(64) })).toBeNull();
      expect(
        (await stats.findBy({ formId: form.form.id })).map((r) => r.day),
      ).toEqual([utcDay(now - 29 * DAY)]);
    });
  });
});
