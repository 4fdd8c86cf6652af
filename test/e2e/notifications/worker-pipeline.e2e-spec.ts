// The worker's pipeline: it claims deliveries a little ahead of its free send slots, and on
// a graceful stop it gives those back (due at once, for any worker) while the sends already
// under way finish and are recorded. A claim takes the longest-due deliveries first.
import { Delivery } from '../../../src/notifications/deliveries/delivery.entity.js';
import { DeliveryRepository } from '../../../src/notifications/deliveries/delivery.repository.js';
import { DeliveryWorker } from '../../../src/notifications/worker/delivery-worker.js';
import { createAccount } from '../../factories/accounts.js';
import { insertDelivery } from '../../factories/deliveries.js';
import { createForm } from '../../factories/forms.js';
import { request } from '../../support/http.js';
import { waitFor } from '../../support/server-process.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import {
  addReceiverWebhook,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../support/webhook-receiver.js';

describe('notification worker pipeline (e2e)', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;

  beforeEach(async () => {
    t = await createTestApp({
      env: { WEBHOOK_ALLOW_PRIVATE: 'true', WORKER_CONCURRENCY: '1' },
    });
    receiver = await startWebhookReceiver();
  });
  afterEach(async () => {
    await receiver.close();
    await t.close();
  });

  it('gives back the deliveries it claimed ahead when it stops, and records the one in flight', async () => {
    const { account } = await createAccount(t);
    const form = await createForm(t, account.id);
    await addReceiverWebhook(t, form, receiver);
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    receiver.answer = async () => {
      await held;
      return 200;
    };
    for (const name of ['first', 'second', 'third']) {
      const answer = await request(`${t.url}/api/submit/${form.form.id}`, {
        json: { name, email: 'ada@example.com', message: 'Hello' },
      });
      expect(answer.status).toBe(200);
    }
    const worker = t.app.get(DeliveryWorker);
    const rows = () =>
      t.dataSource
        .getRepository(Delivery)
        .find({ where: { formId: form.form.id }, order: { id: 'ASC' } });
    // One send under way (one slot), and the others claimed behind it (the worker made
    // the three deliveries from the outbox events of the three submissions).
    await waitFor(
      async () => {
        const all = await rows();
        return (
          receiver.open.size === 1 &&
          all.length === 3 &&
          all.every((row) => row.leaseOwner === worker.owner)
        );
      },
      10_000,
      'one send under way and the others claimed ahead',
    );
    expect(worker.busy).toBe(1);

    const stopped = worker.beforeApplicationShutdown();
    await new Promise((resolve) => setTimeout(resolve, 200));
    release();
    await stopped;

    const [sent, ...rest] = await rows();
    expect(sent).toMatchObject({
      status: 'succeeded',
      attempts: 1,
      lastStatusCode: 200,
      leaseOwner: null,
      leaseUntil: null,
    });
    expect(rest).toHaveLength(2);
    for (const row of rest) {
      expect(row).toMatchObject({
        status: 'pending',
        attempts: 0,
        leaseOwner: null,
        leaseUntil: null,
      });
      expect(row.nextAttemptAt!.getTime()).toBeLessThanOrEqual(Date.now());
    }
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0].id).toBe(sent.id);
  });
});

describe('claiming due deliveries (e2e)', () => {
  let t: TestApp;

  beforeEach(async () => {
    t = await createTestApp({ env: { WORKER_ENABLED: 'false' } });
  });
  afterEach(async () => {
    await t.close();
  });

  it('takes the longest due first, pending or failed alike, and no more than asked', async () => {
    const { account } = await createAccount(t);
    const { form } = await createForm(t, account.id);
    const ago = (ms: number) => new Date(Date.now() - ms);
    const due = async (status: Delivery['status'], nextAttemptAt: Date) =>
      (
        await insertDelivery(t, {
          formId: form.id,
          target: 'hook',
          status,
          nextAttemptAt,
        })
      ).id;
    const oldestFailed = await due('failed', ago(180_000));
    const oldestPending = await due('pending', ago(120_000));
    const failed = await due('failed', ago(60_000));
    const pending = await due('pending', ago(30_000));
    const later = await due('pending', ago(-3_600_000));
    await insertDelivery(t, {
      formId: form.id,
      target: 'hook',
      status: 'succeeded',
      nextAttemptAt: null,
    });
    const store = t.app.get(DeliveryRepository);
    const hook = (take: number) => [
      { accountId: account.id, target: 'hook', take },
    ];

    expect(await store.dueGroups(new Date())).toEqual([
      { accountId: account.id, target: 'hook' },
    ]);
    const first = await store.claim('claimer', hook(3));
    expect(first.map((d) => d.id)).toEqual([
      oldestFailed,
      oldestPending,
      failed,
    ]);
    const second = await store.claim('claimer', hook(5));
    expect(second.map((d) => d.id)).toEqual([pending]);
    expect(await store.claim('claimer', hook(5))).toEqual([]);
    // Nothing of the target is due any more: claimed ones are due when their lease ends.
    expect(await store.dueGroups(new Date())).toEqual([]);

    const rows = await t.dataSource
      .getRepository(Delivery)
      .find({ where: { formId: form.id } });
    const leased = rows.filter((row) => row.leaseOwner === 'claimer');
    expect(leased.map((row) => row.id).sort()).toEqual(
      [oldestFailed, oldestPending, failed, pending].sort(),
    );
    expect(rows.find((row) => row.id === later)).toMatchObject({
      status: 'pending',
      leaseOwner: null,
    });
  });

  it("records many attempts together, each delivery's own outcome, only where its lease is still held", async () => {
    const { account } = await createAccount(t);
    const { form } = await createForm(t, account.id);
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      ids.push(
        (
          await insertDelivery(t, {
            formId: form.id,
            target: 'hook',
            status: 'pending',
            nextAttemptAt: new Date(Date.now() - 60_000 + i),
          })
        ).id,
      );
    }
    const store = t.app.get(DeliveryRepository);
    const claimed = await store.claim('claimer', [
      { accountId: account.id, target: 'hook', take: 3 },
    ]);
    expect(claimed.map((d) => d.id)).toEqual(ids);
    // Another worker holds the third now (the lease ran out meanwhile).
    await t.dataSource
      .getRepository(Delivery)
      .update({ id: ids[2] }, { leaseOwner: 'other' });
    const at = new Date(Math.floor(Date.now() / 1000) * 1000);
    const retryAt = new Date(at.getTime() + 60_000);
    const outcomes = [
      { statusCode: 200, error: null, durationMs: 12 },
      { statusCode: 500, error: 'HTTP 500', durationMs: 34 },
      { statusCode: 200, error: null, durationMs: 5 },
    ];
    await store.record(
      ids.map((deliveryId, i) => ({
        id: `attempt${i}`.padEnd(26, '0'),
        deliveryId,
        at,
        ...outcomes[i],
      })),
      ids.map((id, i) => ({
        id,
        owner: 'claimer',
        status: i === 1 ? 'failed' : 'succeeded',
        nextAttemptAt: i === 1 ? retryAt : null,
        lastStatusCode: outcomes[i].statusCode,
        lastError: outcomes[i].error,
        lastDurationMs: outcomes[i].durationMs,
        deliveredAt: i === 1 ? null : at,
      })),
    );
    const rows = await t.dataSource
      .getRepository(Delivery)
      .find({ where: { formId: form.id } });
    const byId = (id: string) => rows.find((row) => row.id === id);
    expect(byId(ids[0])).toMatchObject({
      status: 'succeeded',
      attempts: 1,
      nextAttemptAt: null,
      leaseOwner: null,
      lastStatusCode: 200,
      lastError: null,
      lastDurationMs: 12,
      deliveredAt: at,
    });
    expect(byId(ids[1])).toMatchObject({
      status: 'failed',
      attempts: 1,
      nextAttemptAt: retryAt,
      leaseOwner: null,
      lastStatusCode: 500,
      lastError: 'HTTP 500',
      lastDurationMs: 34,
      deliveredAt: null,
    });
    expect(byId(ids[2])).toMatchObject({
      status: 'pending',
      attempts: 0,
      leaseOwner: 'other',
      lastStatusCode: null,
    });
  });
});
