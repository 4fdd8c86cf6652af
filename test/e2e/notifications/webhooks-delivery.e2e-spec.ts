// Webhook deliveries end to end: a real receiver on loopback verifies every request with the
// `standardwebhooks` package, fails a few times, then succeeds. Retries carry the same
// webhook-id and a valid signature; exactly one success is recorded; the delivery log keeps
// every attempt; 410 turns a webhook off; a spent schedule makes a delivery dead, and a
// retry by the API starts it afresh.
import { DataSource } from 'typeorm';
import { DeliveryAttempt } from '../../../src/notifications/deliveries/delivery-attempt.entity.js';
import { Delivery } from '../../../src/notifications/deliveries/delivery.entity.js';
import { Webhook } from '../../../src/notifications/webhooks/webhook.entity.js';
import {
  FAILING_REASON,
  GONE_REASON,
} from '../../../src/notifications/webhooks/webhook-channel.js';
import { createAccount } from '../../factories/accounts.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import { request } from '../../support/http.js';
import { countRows, outboxExpanded } from '../../support/stored-rows.js';
import { waitFor } from '../../support/server-process.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import {
  addReceiverWebhook,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../support/webhook-receiver.js';

describe('webhook deliveries (e2e)', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let form: TestForm;

  beforeEach(async () => {
    t = await createTestApp({
      env: {
        WEBHOOK_ALLOW_PRIVATE: 'true',
        WEBHOOK_RETRY_SCHEDULE: '0.2,0.2,0.2',
        SUBMIT_RATE_LIMIT: '1000',
      },
    });
    receiver = await startWebhookReceiver();
    const { account } = await createAccount(t);
    form = await createForm(t, account.id);
  });
  afterEach(async () => {
    await receiver.close();
    await t.close();
  });

  const api = (path: string) => `${t.url}/api/v1/forms/${form.form.id}${path}`;
  const deliveries = () => t.app.get(DataSource).getRepository(Delivery);
  const attempts = () => t.app.get(DataSource).getRepository(DeliveryAttempt);

  const addWebhook = (url = receiver.url) =>
    addReceiverWebhook(t, form, receiver, { url, description: 'receiver' });

  const submit = (json: Record<string, unknown>) =>
    request(`${t.url}/api/submit/${form.form.id}`, { json });

  it('retries with the same id and a valid signature until the receiver accepts, once', async () => {
    const webhookId = await addWebhook();
    receiver.answer = (n) => (n < 3 ? 500 : 200);
    const answer = await submit({
      name: 'Ada',
      email: 'ada@example.com',
      message: '<b>hi</b>',
    });
    expect(answer.status).toBe(200);
    await receiver.waitForSuccesses(1);

    const ids = new Set(receiver.received.map((r) => r.id));
    expect(receiver.received).toHaveLength(4);
    expect(ids.size).toBe(1);
    expect(receiver.received.every((r) => r.verified !== null)).toBe(true);
    expect(receiver.received.map((r) => r.answered)).toEqual([
      500, 500, 500, 200,
    ]);
    const [first] = receiver.received;
    expect(first.headers['content-type']).toBe('application/json');
    expect(first.signature).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    const body = JSON.parse(first.body) as Record<string, unknown>;
    const [stored] = await t.dataSource.query<Array<{ id: string }>>(
      'SELECT id FROM submission',
    );
    expect(body).toEqual({
      type: 'submission.created',
      timestamp: expect.any(String),
      data: {
        formId: form.form.id,
        submissionId: stored.id,
        createdAt: body.timestamp,
        data: { name: 'Ada', email: 'ada@example.com', message: '<b>hi</b>' },
        meta: { ip: '127.0.0.1', userAgent: expect.any(String), origin: null },
      },
    });

    await waitFor(
      async () =>
        (await deliveries().findOneByOrFail({ id: first.id })).status ===
        'succeeded',
      5000,
      'the delivery to be marked succeeded',
    );
    const row = await deliveries().findOneByOrFail({ id: first.id });
    expect(row).toMatchObject({
      formId: form.form.id,
      submissionId: stored.id,
      channel: 'webhook',
      target: webhookId,
      event: 'submission.created',
      attempts: 4,
      lastStatusCode: 200,
      lastError: null,
      leaseOwner: null,
      nextAttemptAt: null,
    });
    expect(row.deliveredAt).toBeInstanceOf(Date);
    const log = await attempts().find({
      where: { deliveryId: row.id },
      order: { at: 'ASC' },
    });
    expect(log.map((a) => a.statusCode)).toEqual([500, 500, 500, 200]);
    expect(log[0].error).toBe('HTTP 500: nope 500');

    const listed = await request(api(`/webhooks/${webhookId}/deliveries`), {
      apiKey: form.apiKey,
    });
    expect(listed.status).toBe(200);
    expect(listed.body.nextCursor).toBeNull();
    expect(listed.body.data).toEqual([
      expect.objectContaining({
        id: row.id,
        status: 'succeeded',
        attempts: 4,
        lastStatusCode: 200,
        submissionId: stored.id,
      }),
    ]);
  });

  it('sends nothing for a post the honeypot caught, nor for a refused one', async () => {
    await addWebhook();
    expect(
      (await submit({ name: 'Bot', email: 'b@example.com', _honeypot: 'x' }))
        .status,
    ).toBe(200);
    expect((await submit({ name: 'No email' })).status).toBe(400);
    // Neither entered the outbox: no delivery will ever be made for them.
    expect(await countRows(t, 'outbox_event')).toBe(0);
    expect(await deliveries().count()).toBe(0);
    expect(await t.dataSource.query('SELECT id FROM submission')).toEqual([]);
  });

  it('gives up after the schedule, then a retry by the API starts it afresh', async () => {
    const webhookId = await addWebhook();
    receiver.answer = () => 503;
    await submit({ name: 'Ada', email: 'ada@example.com' });
    await waitFor(
      async () => (await deliveries().findOneBy({}))?.status === 'dead',
      10_000,
      'the delivery to die',
    );
    const dead = await deliveries().findOneByOrFail({});
    expect(dead.attempts).toBe(4);
    expect(receiver.received).toHaveLength(4);

    receiver.answer = () => 204;
    const retried = await request(
      api(`/webhooks/${webhookId}/deliveries/${dead.id}/retry`),
      { apiKey: form.apiKey, method: 'POST' },
    );
    expect(retried.status).toBe(202);
    expect(retried.body).toMatchObject({
      id: dead.id,
      status: 'pending',
      attempts: 4,
    });
    await receiver.waitForSuccesses(1);
    await waitFor(
      async () =>
        (await deliveries().findOneByOrFail({ id: dead.id })).status ===
        'succeeded',
      5000,
      'the retried delivery to succeed',
    );
    const after = await deliveries().findOneByOrFail({ id: dead.id });
    expect(after.attempts).toBe(5);
    expect(after.scheduleStart).toBe(4);
    expect(new Set(receiver.received.map((r) => r.id))).toEqual(
      new Set([dead.id]),
    );
  });

  it('turns the webhook off when the endpoint answers 410, and stops delivering to it', async () => {
    const webhookId = await addWebhook();
    receiver.answer = () => 410;
    await submit({ name: 'Ada', email: 'ada@example.com' });
    await waitFor(
      async () => (await deliveries().findOneBy({}))?.status === 'dead',
      5000,
      'the delivery to die',
    );
    const hook = await request(api(`/webhooks/${webhookId}`), {
      apiKey: form.apiKey,
    });
    expect(hook.body).toMatchObject({
      enabled: false,
      disabledReason: GONE_REASON,
    });
    expect(receiver.received).toHaveLength(1);
    await submit({ name: 'Grace', email: 'grace@example.com' });
    await outboxExpanded(t);
    expect(await deliveries().count()).toBe(1);
  });

  it('turns off a webhook that failed for 5 days and tells the owner', async () => {
    const webhookId = await addWebhook();
    const hooks = t.app.get(DataSource).getRepository(Webhook);
    await hooks.update(
      { id: webhookId },
      { failingSince: new Date(Date.now() - 5 * 86_400_000 - 60_000) },
    );
    receiver.answer = () => 500;
    await submit({ name: 'Ada', email: 'ada@example.com' });
    await waitFor(
      async () => !(await hooks.findOneByOrFail({ id: webhookId })).enabled,
      5000,
      'the webhook to be turned off',
    );
    const hook = await hooks.findOneByOrFail({ id: webhookId });
    expect(hook.disabledReason).toBe(FAILING_REASON);
    await waitFor(
      async () =>
        t.logs.some((line) =>
          line.includes(
            `a webhook was turned off: Every delivery to the webhook ${webhookId} of your form ${form.form.id}`,
          ),
        ),
      2000,
      'the owner alert',
    );
    // Turned on again by its owner, it starts a fresh failing run.
    const patched = await request(api(`/webhooks/${webhookId}`), {
      apiKey: form.apiKey,
      method: 'PATCH',
      json: { enabled: true },
    });
    expect(patched.body).toMatchObject({ enabled: true, disabledReason: null });
    expect(
      (await hooks.findOneByOrFail({ id: webhookId })).failingSince,
    ).toBeNull();
  });

  it('signs with both secrets for a day after a rotation', async () => {
    const webhookId = await addWebhook();
    const [oldSecret] = receiver.secrets;
    const rotated = await request(api(`/webhooks/${webhookId}/rotate-secret`), {
      apiKey: form.apiKey,
      method: 'POST',
    });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(oldSecret);
    // Each secret alone verifies the request.
    receiver.secrets = [rotated.body.secret as string];
    await submit({ name: 'Ada', email: 'ada@example.com' });
    await receiver.waitForSuccesses(1);
    receiver.secrets = [oldSecret];
    await submit({ name: 'Grace', email: 'grace@example.com' });
    await receiver.waitForSuccesses(2);
    expect(receiver.received[0].signature.split(' ')).toHaveLength(2);
  });
});
