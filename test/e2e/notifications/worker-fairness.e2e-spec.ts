// One account cannot hold another's notifications back: the worker is shared by every
// account, so a flood of test events at one account's endpoints that never answer still
// leaves send slots for another account's delivery, which leaves at once; and one webhook
// never has more than two sends in flight.
import { createAccount } from '../../factories/accounts.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import { request } from '../../support/http.js';
import { waitFor } from '../../support/server-process.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import {
  addReceiverWebhook,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../support/webhook-receiver.js';

const SLOTS = 8;
const SLOW_HOOKS = 5;
const TESTS_PER_HOOK = 8;

describe('a worker shared fairly between accounts (e2e)', () => {
  let t: TestApp;
  let slow: WebhookReceiver;
  let fast: WebhookReceiver;
  let release: () => void = () => undefined;

  beforeEach(async () => {
    t = await createTestApp({
      env: {
        WEBHOOK_ALLOW_PRIVATE: 'true',
        WORKER_CONCURRENCY: String(SLOTS),
        SUBMIT_RATE_LIMIT: '1000',
      },
    });
    slow = await startWebhookReceiver();
    // The flooded endpoints answer nothing until the test lets them.
    const held = new Promise<void>((resolve) => (release = resolve));
    slow.answer = async () => {
      await held;
      return 200;
    };
    fast = await startWebhookReceiver();
  });
  afterEach(async () => {
    release();
    await slow.close();
    await fast.close();
    await t.close();
  });

  async function addWebhook(
    form: TestForm,
    receiver: WebhookReceiver,
    path: string,
  ): Promise<string> {
    return addReceiverWebhook(t, form, receiver, {
      url: `${receiver.url}/${path}`,
    });
  }

  it("sends another account's delivery at once while one account floods endpoints that hang", async () => {
    const flooder = await createForm(t, (await createAccount(t)).account.id);
    const hooks: string[] = [];
    for (let i = 0; i < SLOW_HOOKS; i += 1) {
      hooks.push(await addWebhook(flooder, slow, `hook-${i}`));
    }
    for (let round = 0; round < TESTS_PER_HOOK; round += 1) {
      for (const hook of hooks) {
        const queued = await request(
          `${t.url}/api/v1/forms/${flooder.form.id}/webhooks/${hook}/test`,
          { apiKey: flooder.apiKey, method: 'POST' },
        );
        expect(queued.status).toBe(202);
      }
    }
    // The flood takes what it may: at most two sends per webhook, and never the last
    // quarter of the slots while none of its sends has ended.
    await waitFor(
      async () => slow.openNow() === SLOTS - SLOTS / 4,
      10_000,
      'the flood to fill what it may of the worker',
    );

    const other = await createForm(t, (await createAccount(t)).account.id);
    await addWebhook(other, fast, 'other');
    const submitted = await request(`${t.url}/api/submit/${other.form.id}`, {
      json: { name: 'Ada', email: 'ada@example.com', message: 'Hello' },
    });
    expect(submitted.status).toBe(200);
    await fast.waitForSuccesses(1, 5_000);
    // It left while every request of the flood was still hanging.
    expect(slow.received).toHaveLength(0);
    expect(slow.openNow()).toBe(SLOTS - SLOTS / 4);
    expect(fast.received).toHaveLength(1);
    expect(
      (fast.received[0].verified as { type: string; data: { formId: string } })
        .data.formId,
    ).toBe(other.form.id);

    // Let the flood through: every test event arrives, each webhook had at most two
    // requests open at once.
    release();
    await slow.waitForSuccesses(SLOW_HOOKS * TESTS_PER_HOOK, 20_000);
    expect(slow.received).toHaveLength(SLOW_HOOKS * TESTS_PER_HOOK);
    expect([...slow.maxOpenByPath.values()]).toHaveLength(SLOW_HOOKS);
    for (const most of slow.maxOpenByPath.values()) {
      expect(most).toBeLessThanOrEqual(2);
    }
    expect(slow.maxOpen).toBeLessThanOrEqual(SLOTS - SLOTS / 4);
    const succeeded = async () =>
      Number(
        (
          await t.dataSource.query(
            "SELECT COUNT(*) AS n FROM delivery WHERE status = 'succeeded' AND formId = ?",
            [flooder.form.id],
          )
        )[0].n,
      );
    await waitFor(
      async () => (await succeeded()) === SLOW_HOOKS * TESTS_PER_HOOK,
      10_000,
      "every one of the flood's deliveries to be recorded",
    );
  });

  it('sends at most two at once to one webhook, and the rest as they end', async () => {
    const form = await createForm(t, (await createAccount(t)).account.id);
    const hook = await addWebhook(form, slow, 'one');
    for (let i = 0; i < 6; i += 1) {
      const queued = await request(
        `${t.url}/api/v1/forms/${form.form.id}/webhooks/${hook}/test`,
        { apiKey: form.apiKey, method: 'POST' },
      );
      expect(queued.status).toBe(202);
    }
    await waitFor(async () => slow.openNow() === 2, 10_000, 'two sends open');
    // Two are held; the other four are claimed or due, none sent.
    const states = (await t.dataSource.query(
      'SELECT status, attempts FROM delivery WHERE formId = ?',
      [form.form.id],
    )) as Array<{ status: string; attempts: number }>;
    expect(states).toHaveLength(6);
    expect(states.every((s) => s.status === 'pending')).toBe(true);
    expect(slow.openNow()).toBe(2);
    release();
    await slow.waitForSuccesses(6, 10_000);
    expect(slow.maxOpen).toBe(2);
  });
});
