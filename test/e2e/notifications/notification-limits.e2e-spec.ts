// What an owner may make the service send on demand: `POST …/webhooks/:id/test` 10 a minute
// per webhook, `POST …/deliveries/:id/retry` 60 a minute per form, 429 `{error}` with
// Retry-After beyond, by API and dashboard alike, and one budget across instances when
// REDIS_URL is set. Before, 3,000 test calls were accepted in 9 s: 3,000 POSTs to any public
// URL queued in the worker every account shares.
import { randomBytes } from 'node:crypto';
import { AccountsService } from '../../../src/accounts/accounts.service.js';
import { Delivery } from '../../../src/notifications/deliveries/delivery.entity.js';
import {
  RETRIES_PER_FORM,
  TESTS_PER_WEBHOOK,
} from '../../../src/notifications/notification-limiter.js';
import { createAccount } from '../../factories/accounts.js';
import { insertDelivery } from '../../factories/deliveries.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import { DashboardClient, textOf } from '../../support/dashboard-client.js';
import { request, type HttpResponse } from '../../support/http.js';
import {
  describeWhen,
  NEEDS_REDIS,
  TEST_REDIS_URL,
} from '../../support/skips.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import { createTestDatabase } from '../../support/test-database.js';

const TOO_MANY_TESTS =
  /^Too many test events: at most 10 a minute per webhook\. Retry in (\d+) seconds\.$/;
const TOO_MANY_RETRIES =
  /^Too many retries: at most 60 a minute per form\. Retry in (\d+) seconds\.$/;

function expectRefused(res: HttpResponse, message: RegExp): void {
  expect(res.status).toBe(429);
  expect(Object.keys(res.body)).toEqual(['error']);
  expect(res.body.error).toMatch(message);
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(res.body.error).toContain(`Retry in ${retryAfter} seconds.`);
}

/** A webhook of `form` on an address that never answers (the worker is off anyway). */
async function addWebhook(t: TestApp, form: TestForm): Promise<string> {
  const created = await request(
    `${t.url}/api/v1/forms/${form.form.id}/webhooks`,
    { apiKey: form.apiKey, json: { url: 'http://127.0.0.1:9/hook' } },
  );
  expect(created.status).toBe(201);
  return created.body.id as string;
}

async function deliveriesOf(t: TestApp, target: string): Promise<Delivery[]> {
  return t.dataSource.getRepository(Delivery).findBy({ target });
}

describe('limits on test events and retries (e2e)', () => {
  let t: TestApp;
  let form: TestForm;

  beforeAll(async () => {
    t = await createTestApp({
      env: { WEBHOOK_ALLOW_PRIVATE: 'true', WORKER_ENABLED: 'false' },
    });
  });
  afterAll(async () => {
    await t.close();
  });
  beforeEach(async () => {
    const { account } = await createAccount(t);
    form = await createForm(t, account.id);
  });

  const test = (webhookId: string, apiKey = form.apiKey) =>
    request(
      `${t.url}/api/v1/forms/${form.form.id}/webhooks/${webhookId}/test`,
      { apiKey, method: 'POST' },
    );

  it('sends at most 10 test events a minute per webhook, then 429 with Retry-After', async () => {
    const hook = await addWebhook(t, form);
    for (let i = 0; i < TESTS_PER_WEBHOOK; i++) {
      expect((await test(hook)).status).toBe(202);
    }
    const refused = await test(hook);
    expectRefused(refused, TOO_MANY_TESTS);
    // Nothing queued for the refused call, whichever key asks.
    expect(await deliveriesOf(t, hook)).toHaveLength(TESTS_PER_WEBHOOK);
    const owner = await createAccount(t);
    expect((await test(hook, owner.apiKey)).status).toBe(404);

    // Another webhook of the same form has a budget of its own.
    const other = await addWebhook(t, form);
    expect((await test(other)).status).toBe(202);
    expect(await deliveriesOf(t, other)).toHaveLength(1);
  });

  it('retries at most 60 deliveries a minute per form, then 429 with Retry-After', async () => {
    const hook = await addWebhook(t, form);
    const dead: Delivery[] = [];
    for (let i = 0; i <= RETRIES_PER_FORM; i++) {
      dead.push(
        await insertDelivery(t, {
          formId: form.form.id,
          target: hook,
          status: 'dead',
          attempts: 8,
          nextAttemptAt: null,
        }),
      );
    }
    const retry = (delivery: Delivery) =>
      request(
        `${t.url}/api/v1/forms/${form.form.id}/webhooks/${hook}/deliveries/${delivery.id}/retry`,
        { apiKey: form.apiKey, method: 'POST' },
      );
    for (const delivery of dead.slice(0, RETRIES_PER_FORM)) {
      expect((await retry(delivery)).status).toBe(202);
    }
    const last = dead[RETRIES_PER_FORM];
    expectRefused(await retry(last), TOO_MANY_RETRIES);
    const stored = await t.dataSource
      .getRepository(Delivery)
      .findOneByOrFail({ id: last.id });
    expect(stored).toMatchObject({ status: 'dead', nextAttemptAt: null });
    const pending = (await deliveriesOf(t, hook)).filter(
      (row) => row.status === 'pending',
    );
    expect(pending).toHaveLength(RETRIES_PER_FORM);

    // Another form of the same account retries as before.
    const { account } = await createAccount(t);
    const sibling = await createForm(t, account.id);
    const siblingHook = await addWebhook(t, sibling);
    const own = await insertDelivery(t, {
      formId: sibling.form.id,
      target: siblingHook,
      status: 'dead',
    });
    const answer = await request(
      `${t.url}/api/v1/forms/${sibling.form.id}/webhooks/${siblingHook}/deliveries/${own.id}/retry`,
      { apiKey: sibling.apiKey, method: 'POST' },
    );
    expect(answer.status).toBe(202);
  });

  it('refuses the dashboard the same way, with the sentence on the page', async () => {
    const client = new DashboardClient(t.url);
    const email = `limits-${randomBytes(4).toString('hex')}@example.com`;
    expect((await client.signUp(email)).status).toBe(303);
    const owner = await t.app.get(AccountsService).findByEmail(email);
    const own = await createForm(t, owner!.id);
    const hook = await addWebhook(t, own);
    const page = `/dashboard/forms/${own.form.id}/notifications`;
    for (let i = 0; i < TESTS_PER_WEBHOOK; i++) {
      const sent = await client.post(
        `${page}/webhooks/${hook}/test`,
        {},
        { from: page },
      );
      expect(sent.status).toBe(303);
    }
    const refused = await client.post(
      `${page}/webhooks/${hook}/test`,
      {},
      { from: page },
    );
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(
      1,
    );
    expect(textOf(refused.html)).toMatch(
      /Too many test events: at most 10 a minute per webhook\. Retry in \d+ seconds\./,
    );
    expect(await deliveriesOf(t, hook)).toHaveLength(TESTS_PER_WEBHOOK);
  });
});

describeWhen(Boolean(TEST_REDIS_URL), NEEDS_REDIS)(
  'limits on test events across instances (e2e, Redis)',
  () => {
    it('spends one budget on every instance', async () => {
      const database = await createTestDatabase({ shared: true });
      const url = new URL(TEST_REDIS_URL!);
      url.searchParams.set(
        'keyPrefix',
        `formgate-test-${process.pid}-${randomBytes(4).toString('hex')}:`,
      );
      const env = {
        REDIS_URL: url.toString(),
        WEBHOOK_ALLOW_PRIVATE: 'true',
        WORKER_ENABLED: 'false',
      };
      const a = await createTestApp({ database, env });
      const b = await createTestApp({ database, env });
      try {
        const { account } = await createAccount(a);
        const form = await createForm(a, account.id);
        const hook = await addWebhook(a, form);
        const testOn = (app: TestApp) =>
          request(
            `${app.url}/api/v1/forms/${form.form.id}/webhooks/${hook}/test`,
            { apiKey: form.apiKey, method: 'POST' },
          );
        for (let i = 0; i < TESTS_PER_WEBHOOK; i++) {
          expect((await testOn(i % 2 === 0 ? a : b)).status).toBe(202);
        }
        expectRefused(await testOn(a), TOO_MANY_TESTS);
        expectRefused(await testOn(b), TOO_MANY_TESTS);
        expect(await deliveriesOf(a, hook)).toHaveLength(TESTS_PER_WEBHOOK);
      } finally {
        await a.close();
        await b.close();
        await database.drop();
      }
    });
  },
);
