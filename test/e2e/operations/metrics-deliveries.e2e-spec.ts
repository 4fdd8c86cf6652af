// A notification moves the delivery metrics (docs/operations.md): a webhook that is
// refused once and then accepted counts one failed attempt and one success, with its lag,
// and the backlog is back to 0 once it is delivered.
import { Delivery } from '../../../src/notifications/deliveries/delivery.entity.js';
import { createAccount } from '../../factories/accounts.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import { request } from '../../support/http.js';
import { METRICS_ENV, scrape } from '../../support/metrics.js';
import { waitFor } from '../../support/server-process.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import {
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../support/webhook-receiver.js';

describe('delivery metrics (e2e)', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let form: TestForm;

  beforeAll(async () => {
    t = await createTestApp({
      env: {
        ...METRICS_ENV,
        WEBHOOK_ALLOW_PRIVATE: 'true',
        WEBHOOK_RETRY_SCHEDULE: '0.2,60',
      },
    });
    receiver = await startWebhookReceiver();
    const { account } = await createAccount(t);
    form = await createForm(t, account.id);
    const created = await request(
      `${t.url}/api/v1/forms/${form.form.id}/webhooks`,
      { apiKey: form.apiKey, json: { url: receiver.url } },
    );
    expect(created.status).toBe(201);
    receiver.secrets.push(created.body.secret as string);
  });
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });

  it('counts a failed attempt and the delivery that followed, with its lag', async () => {
    const before = await scrape(t);
    const webhook = (outcome: string) => ({ channel: 'webhook', outcome });
    receiver.answer = (n) => (n === 0 ? 500 : 200);

    const answer = await request(`${t.url}/api/submit/${form.form.id}`, {
      json: { name: 'Ada', email: 'ada@example.com' },
    });
    expect(answer.status).toBe(200);
    await receiver.waitForSuccesses(1);
    // The attempt is counted once it is recorded, just after the receiver answered.
    await waitFor(
      async () =>
        (await t.dataSource
          .getRepository(Delivery)
          .countBy({ status: 'succeeded' })) === 1,
      10_000,
      'the delivery recorded as succeeded',
    );
    const after = await scrape(t);
    const moved = (name: string, labels?: Record<string, string>) =>
      after.value(name, labels) - before.value(name, labels);

    expect(receiver.received.map((r) => r.answered)).toEqual([500, 200]);
    expect(moved('formgate_deliveries_total', webhook('failed'))).toBe(1);
    expect(moved('formgate_deliveries_total', webhook('succeeded'))).toBe(1);
    expect(moved('formgate_deliveries_total', webhook('dead'))).toBe(0);
    expect(moved('formgate_delivery_lag_seconds_count')).toBe(1);
    // The lag runs from the submission being stored: a retry 0.2 s later, at least.
    const lag = moved('formgate_delivery_lag_seconds_sum');
    expect(lag).toBeGreaterThanOrEqual(0.15);
    expect(lag).toBeLessThan(30);
    expect(
      after.value('formgate_delivery_backlog', { channel: 'webhook' }),
    ).toBe(0);
    expect(after.value('formgate_delivery_backlog', { channel: 'email' })).toBe(
      0,
    );
    // A label never carries the webhook's address or id.
    expect(after.text).not.toContain(receiver.url);
    expect(after.text).not.toContain(String(receiver.port));
  });

  it('counts what waits in the backlog, by channel', async () => {
    // A target that keeps failing keeps its delivery waiting: after its second attempt,
    // the next is a minute away.
    receiver.answer = () => 500;
    const answer = await request(`${t.url}/api/submit/${form.form.id}`, {
      json: { name: 'Grace', email: 'grace@example.com' },
    });
    expect(answer.status).toBe(200);
    await waitFor(
      async () =>
        (await t.dataSource
          .getRepository(Delivery)
          .countBy({ status: 'failed', attempts: 2 })) === 1,
      10_000,
      'a delivery waiting for its third attempt',
    );
    const s = await scrape(t);
    expect(s.value('formgate_delivery_backlog', { channel: 'webhook' })).toBe(
      1,
    );
    expect(s.value('formgate_delivery_backlog', { channel: 'email' })).toBe(0);
  });
});
