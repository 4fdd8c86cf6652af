// Switching a CAPTCHA on must not silently break pages already deployed: for 7 days after
// it is switched on for a form (or until the owner ends it), a post with no CAPTCHA answer at
// all is stored in the spam folder as `captcha-missing`, answered like any other and never
// notified, while a wrong or used answer is refused as ever. A form created with its CAPTCHA
// has no grace (nothing was deployed without it).
import { Delivery } from '../../../src/notifications/deliveries/delivery.entity.js';
import { Submission } from '../../../src/submissions/submission.entity.js';
import { createAccount } from '../../factories/accounts.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import { solvedAltcha } from '../../support/altcha.js';
import { expectProblem } from '../../support/answers.js';
import { request } from '../../support/http.js';
import { waitFor } from '../../support/server-process.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import {
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../support/webhook-receiver.js';

const RECEIVED = { success: true, message: 'Submission received' };
const DAY = 86_400_000;
const person = { name: 'Ada', email: 'ada@example.com' };

describe('the grace period of a CAPTCHA switched on (e2e)', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let form: TestForm;

  beforeAll(async () => {
    t = await createTestApp({
      env: {
        ALTCHA_COST: '1',
        WEBHOOK_ALLOW_PRIVATE: 'true',
        SUBMIT_RATE_LIMIT: '1000',
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
    const hook = await request(api('/webhooks'), {
      apiKey: form.apiKey,
      json: { url: receiver.url },
    });
    expect(hook.status).toBe(201);
  });

  const api = (path = '') => `${t.url}/api/v1/forms/${form.form.id}${path}`;
  const patch = (json: unknown) =>
    request(api(), { method: 'PATCH', apiKey: form.apiKey, json });
  const submit = (json: Record<string, unknown>) =>
    request(`${t.url}/api/submit/${form.form.id}`, { json });
  const stored = () =>
    t.dataSource
      .getRepository(Submission)
      .find({ where: { formId: form.form.id }, order: { id: 'ASC' } });
  const deliveriesOf = (submissionId: string) =>
    t.dataSource.getRepository(Delivery).findBy({ submissionId });
  const storedCaptcha = async () => {
    const [row] = await t.dataSource.query(
      'SELECT captcha FROM form WHERE id = ?',
      [form.form.id],
    );
    return (
      typeof row.captcha === 'string' ? JSON.parse(row.captcha) : row.captcha
    ) as { graceUntil: string | null };
  };

  it('starts 7 days of grace when a form that had none gets one, and keeps a post without an answer as unnotified spam', async () => {
    const before = Date.now();
    const on = await patch({ captcha: { provider: 'altcha' } });
    expect(on.status).toBe(200);
    const graceUntil = Date.parse(on.body.captcha.graceUntil as string);
    expect(graceUntil).toBeGreaterThanOrEqual(before + 7 * DAY);
    expect(graceUntil).toBeLessThanOrEqual(Date.now() + 7 * DAY);
    expect(on.body.captcha).toEqual({
      provider: 'altcha',
      siteKey: null,
      minScore: null,
      secretSet: false,
      graceUntil: new Date(graceUntil).toISOString(),
    });
    expect((await storedCaptcha()).graceUntil).toBe(on.body.captcha.graceUntil);

    // No answer at all: the usual 200, stored as spam, no notification.
    const missing = await submit(person);
    expect(missing.status).toBe(200);
    expect(missing.body).toEqual(RECEIVED);
    // A blank answer (an unsolved widget's field) counts as none.
    const blank = await submit({ ...person, altcha: '' });
    expect(blank.status).toBe(200);
    const rows = await stored();
    expect(rows.map((r) => [r.spam, r.spamReasons])).toEqual([
      [true, ['captcha-missing']],
      [true, ['captcha-missing']],
    ]);
    expect(rows[0].data).toEqual(person);

    // A solved answer is stored clean and notified.
    const solved = await submit({
      ...person,
      altcha: await solvedAltcha(t, form.form.id),
    });
    expect(solved.status).toBe(200);
    const clean = (await stored()).at(-1)!;
    expect([clean.spam, clean.spamReasons]).toEqual([false, null]);
    // The clean one is notified (the worker expands its outbox event); the kept ones never.
    await waitFor(
      async () => (await deliveriesOf(clean.id)).length === 1,
      10_000,
      'the delivery of the clean submission',
    );
    expect(await deliveriesOf(rows[0].id)).toEqual([]);
    expect(await deliveriesOf(rows[1].id)).toEqual([]);
  });

  it('still refuses a malformed, wrong or used answer during the grace', async () => {
    expect((await patch({ captcha: { provider: 'altcha' } })).status).toBe(200);
    const malformed = await submit({ ...person, altcha: 'nope' });
    expectProblem(malformed, 400, {
      error: 'Validation failed',
      errors: ['captcha: the ALTCHA solution is malformed'],
    });
    const altcha = await solvedAltcha(t, form.form.id);
    expect((await submit({ ...person, altcha })).status).toBe(200);
    const used = await submit({ ...person, altcha });
    expect(used.status).toBe(400);
    expect(used.body.errors).toEqual([
      'captcha: this ALTCHA solution was already used: solve a new one',
    ]);
    expect((await stored()).map((r) => r.spam)).toEqual([false]);
  });

  it('keeps the grace as it was through a change, and ends it on {graceUntil: null}', async () => {
    const on = await patch({ captcha: { provider: 'altcha' } });
    const graceUntil = on.body.captcha.graceUntil as string;
    // Another provider, or the same again: the grace is neither extended nor restarted.
    const changed = await patch({
      captcha: { provider: 'turnstile', siteKey: 'k', secret: 's' },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.captcha.graceUntil).toBe(graceUntil);

    const ended = await patch({
      captcha: { provider: 'turnstile', graceUntil: null },
    });
    expect(ended.status).toBe(200);
    expect(ended.body.captcha).toEqual({
      provider: 'turnstile',
      siteKey: null,
      minScore: null,
      secretSet: true,
      graceUntil: null,
    });
    expect((await storedCaptcha()).graceUntil).toBeNull();
    const refused = await submit(person);
    expectProblem(refused, 400, {
      error: 'Validation failed',
      errors: [
        'captcha: no Turnstile token was sent (the "cf-turnstile-response" field is missing)',
      ],
    });
    expect(await stored()).toEqual([]);
    // Once ended, a change does not bring it back.
    const again = await patch({ captcha: { provider: 'turnstile' } });
    expect(again.body.captcha.graceUntil).toBeNull();
  });

  it('refuses a post without an answer once the grace has run out', async () => {
    expect((await patch({ captcha: { provider: 'altcha' } })).status).toBe(200);
    const captcha = await storedCaptcha();
    await t.dataSource.query('UPDATE form SET captcha = ? WHERE id = ?', [
      JSON.stringify({
        ...captcha,
        graceUntil: new Date(Date.now() - 1000).toISOString(),
      }),
      form.form.id,
    ]);
    // Any change of the form reaches the submit path's cache.
    const renamed = await patch({ name: 'Contact (protected)' });
    expect(renamed.body.captcha.graceUntil).toBeNull();
    const refused = await submit(person);
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([
      'captcha: no ALTCHA solution was sent (the "altcha" field is missing)',
    ]);
    expect(await stored()).toEqual([]);
  });

  it('gives none to a form created with its CAPTCHA, or switched on with {graceUntil: null}', async () => {
    const created = await request(`${t.url}/api/v1/forms`, {
      apiKey: form.apiKey,
      json: { name: 'Protected', captcha: { provider: 'altcha' } },
    });
    expect(created.status).toBe(201);
    expect(created.body.captcha.graceUntil).toBeNull();
    const onCreated = await request(
      `${t.url}/api/submit/${created.body.id as string}`,
      { json: { message: 'hi' } },
    );
    expect(onCreated.status).toBe(400);

    const strict = await patch({
      captcha: { provider: 'altcha', graceUntil: null },
    });
    expect(strict.body.captcha.graceUntil).toBeNull();
    expect((await submit(person)).status).toBe(400);
    expect(await stored()).toEqual([]);
  });

  it('accepts only null for graceUntil', async () => {
    for (const graceUntil of ['2030-01-01T00:00:00.000Z', 7, true]) {
      const res = await patch({ captcha: { provider: 'altcha', graceUntil } });
      expectProblem(
        res,
        400,
        {
          error: 'Validation failed',
          errors: [
            'captcha.graceUntil can only be null (ends the grace period)',
          ],
        },
        String(graceUntil),
      );
    }
    const read = await request(api(), { apiKey: form.apiKey });
    expect(read.body.captcha).toBeNull();
  });
});
