// Background sweeps: deliveries older than DELIVERY_RETENTION_DAYS go with their attempts,
// in batches that take turns with requests; the sweeps run shortly after start and then
// every SWEEP_INTERVAL_SECONDS, and log what they deleted. Deliveries of a webhook go
// with it (webhooks-api.e2e-spec.ts).
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { DataSource } from 'typeorm';
import { ulid } from 'ulid';
import { Form } from '../../../src/forms/form.entity.js';
import { DeliveryAttempt } from '../../../src/notifications/deliveries/delivery-attempt.entity.js';
import { Delivery } from '../../../src/notifications/deliveries/delivery.entity.js';
import { MAX_SWEEP_BATCH } from '../../../src/sweeps/batches.js';
import { SweepsService } from '../../../src/sweeps/sweeps.service.js';
import { createAccount } from '../../factories/accounts.js';
import { insertDelivery } from '../../factories/deliveries.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import { request } from '../../support/http.js';
import { waitFor } from '../../support/server-process.js';
import {
  createTestApp,
  TEST_APP_SECRET,
  type TestApp,
} from '../../support/test-app.js';
import { createTestDatabase } from '../../support/test-database.js';

const DAY_MS = 24 * 3600 * 1000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS);

async function insertAttempts(
  t: TestApp,
  deliveryId: string,
  count: number,
): Promise<void> {
  const at = new Date();
  await t.dataSource.getRepository(DeliveryAttempt).insert(
    Array.from({ length: count }, () => ({
      id: ulid(),
      deliveryId,
      at,
      statusCode: 500,
      error: null,
      durationMs: 3,
    })),
  );
}

async function ids(t: TestApp, table: string): Promise<string[]> {
  const column = table === 'delivery' ? 'id' : 'deliveryId';
  const rows = (await t.dataSource.query(
    `SELECT ${column} AS id FROM ${table} ORDER BY ${column}`,
  )) as Array<{ id: string }>;
  return rows.map((row) => row.id);
}

/** Many old deliveries at once, written in one statement per thousand. */
async function insertOldDeliveries(
  t: TestApp,
  formId: string,
  count: number,
): Promise<void> {
  const createdAt = daysAgo(40);
  const { accountId } = await t.dataSource
    .getRepository(Form)
    .findOneByOrFail({ id: formId });
  for (let done = 0; done < count; done += 1000) {
    const rows = Array.from(
      { length: Math.min(1000, count - done) },
      (): Partial<Delivery> => ({
        id: ulid(createdAt.getTime()),
        formId,
        accountId,
        channel: 'webhook',
        target: 'old-hook',
        event: 'webhook.test',
        status: 'succeeded',
        createdAt,
      }),
    );
    await t.dataSource
      .createQueryBuilder()
      .insert()
      .into(Delivery)
      .values(rows)
      .updateEntity(false)
      .execute();
  }
}

describe('delivery retention sweep (e2e)', () => {
  let t: TestApp;
  let form: TestForm;

  beforeAll(async () => {
    // No background run: the test runs the sweeps itself.
    t = await createTestApp({
      env: { SWEEP_INTERVAL_SECONDS: '0', WORKER_ENABLED: 'false' },
    });
  });
  afterAll(async () => {
    await t.close();
  });
  beforeEach(async () => {
    await t.dataSource.query('DELETE FROM delivery_attempt');
    await t.dataSource.query('DELETE FROM delivery');
    const { account } = await createAccount(t);
    form = await createForm(t, account.id);
  });

  it('deletes deliveries older than DELIVERY_RETENTION_DAYS with their attempts, and keeps the rest', async () => {
    const formId = form.form.id;
    const old: Delivery[] = [];
    for (let i = 0; i < 3; i++) {
      const row = await insertDelivery(t, {
        formId,
        target: 'hook',
        createdAt: daysAgo(31 + i),
        status: 'dead',
      });
      await insertAttempts(t, row.id, 2);
      old.push(row);
    }
    const recent = await insertDelivery(t, {
      formId,
      target: 'hook',
      createdAt: daysAgo(29),
      status: 'succeeded',
    });
    await insertAttempts(t, recent.id, 1);
    // Old, but being sent right now: left for a later run.
    const leased = await insertDelivery(t, {
      formId,
      target: 'hook',
      createdAt: daysAgo(45),
      leaseOwner: 'a worker',
      leaseUntil: new Date(Date.now() + 60_000),
    });
    const fresh = await insertDelivery(t, { formId, target: 'hook' });

    const result = await t.app.get(SweepsService).runAll();

    expect(result.deliveries).toEqual({ deliveries: 3, attempts: 6 });
    expect(await ids(t, 'delivery')).toEqual(
      [recent.id, leased.id, fresh.id].sort(),
    );
    expect(await ids(t, 'delivery_attempt')).toEqual([recent.id]);
    const log = await request(`${t.url}/api/v1/forms/${formId}/deliveries`, {
      apiKey: form.apiKey,
    });
    expect(log.status).toBe(200);
    expect(
      (log.body.data as Array<{ id: string }>).map((row) => row.id).sort(),
    ).toEqual([recent.id, leased.id, fresh.id].sort());
    expect(
      t.logs.some((line) =>
        line.includes(
          'Sweep \\"deliveries\\" deleted 3 deliveries, 6 attempts',
        ),
      ),
    ).toBe(true);

    // Nothing left to delete: a second run deletes nothing.
    await expect(t.app.get(SweepsService).runAll()).resolves.toMatchObject({
      deliveries: { deliveries: 0, attempts: 0 },
    });
  });

  it('deletes many rows in small batches, answering requests between them', async () => {
    const rows = 4000;
    await insertOldDeliveries(t, form.form.id, rows);
    const kept = await insertDelivery(t, {
      formId: form.form.id,
      target: 'hook',
    });
    const transaction = vi.spyOn(t.dataSource, 'transaction');

    let sweeping = true;
    const sweep = t.app
      .get(SweepsService)
      .runAll()
      .finally(() => {
        sweeping = false;
      });
    let answeredDuring = 0;
    while (sweeping) {
      const health = await request(`${t.url}/health/live`);
      expect(health.status).toBe(200);
      if (sweeping) answeredDuring++;
    }
    const result = await sweep;
    const batches = transaction.mock.calls.length;
    transaction.mockRestore();

    expect(result.deliveries).toEqual({ deliveries: rows, attempts: 0 });
    expect(await ids(t, 'delivery')).toEqual([kept.id]);
    // One transaction per batch, none larger than MAX_SWEEP_BATCH rows.
    expect(batches).toBeGreaterThanOrEqual(rows / MAX_SWEEP_BATCH);
    expect(answeredDuring).toBeGreaterThan(0);
  });

  it('keeps deliveries longer when DELIVERY_RETENTION_DAYS says so', async () => {
    const longer = await createTestApp({
      env: {
        SWEEP_INTERVAL_SECONDS: '0',
        WORKER_ENABLED: 'false',
        DELIVERY_RETENTION_DAYS: '90',
      },
    });
    try {
      const { account } = await createAccount(longer);
      const other = await createForm(longer, account.id);
      const within = await insertDelivery(longer, {
        formId: other.form.id,
        target: 'hook',
        createdAt: daysAgo(60),
      });
      await insertDelivery(longer, {
        formId: other.form.id,
        target: 'hook',
        createdAt: daysAgo(91),
      });
      const result = await longer.app.get(SweepsService).runAll();
      expect(result.deliveries).toEqual({ deliveries: 1, attempts: 0 });
      const left = await longer.app
        .get(DataSource)
        .query('SELECT id FROM delivery');
      expect(left).toEqual([{ id: within.id }]);
    } finally {
      await longer.close();
    }
  });
});

describe('sweep schedule (e2e)', () => {
  it('sweeps shortly after start and again every SWEEP_INTERVAL_SECONDS', async () => {
    const t = await createTestApp({
      env: { SWEEP_INTERVAL_SECONDS: '1', WORKER_ENABLED: 'false' },
    });
    try {
      const { account } = await createAccount(t);
      const { form } = await createForm(t, account.id);
      const deliveryCount = async () =>
        Number(
          (
            (await t.dataSource.query(
              'SELECT COUNT(*) AS n FROM delivery',
            )) as Array<{ n: number | string }>
          )[0].n,
        );
      await insertDelivery(t, {
        formId: form.id,
        target: 'hook',
        createdAt: daysAgo(31),
      });
      await waitFor(
        async () => (await deliveryCount()) === 0,
        10_000,
        'the first sweep',
      );
      // And again, at the next interval.
      await insertDelivery(t, {
        formId: form.id,
        target: 'hook',
        createdAt: daysAgo(31),
      });
      await waitFor(
        async () => (await deliveryCount()) === 0,
        10_000,
        'the next sweep',
      );
      const lines = t.logs.filter((line) =>
        line.includes('Sweep \\"deliveries\\" deleted 1 deliveries'),
      );
      expect(lines.length).toBeGreaterThanOrEqual(2);
      expect(JSON.parse(lines[0])).toMatchObject({
        level: 30,
        context: 'Sweeps',
      });
    } finally {
      await t.close();
    }
  });
});

describe('sweeps in the worker process (e2e, `npm run worker`)', () => {
  it('runs the sweeps of its modules on the same schedule', async () => {
    const database = await createTestDatabase({ shared: true });
    // The app migrates the shared database and seeds it; it sweeps nothing itself.
    const t = await createTestApp({
      database,
      env: { SWEEP_INTERVAL_SECONDS: '0', WORKER_ENABLED: 'false' },
    });
    const output: string[] = [];
    const worker = spawn(process.execPath, [resolve('dist/src/worker.js')], {
      env: {
        PATH: process.env.PATH ?? '',
        APP_SECRET: TEST_APP_SECRET,
        DATABASE_URL: database.url,
        SWEEP_INTERVAL_SECONDS: '1',
        LOG_FORMAT: 'json',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    worker.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    const exited = new Promise<string>((done) =>
      worker.once('exit', (code, signal) => done(signal ?? String(code))),
    );
    try {
      const { account } = await createAccount(t);
      const { form } = await createForm(t, account.id);
      await insertDelivery(t, {
        formId: form.id,
        target: 'hook',
        createdAt: daysAgo(31),
        status: 'dead',
      });
      const recent = await insertDelivery(t, {
        formId: form.id,
        target: 'hook',
        createdAt: daysAgo(1),
        status: 'dead',
      });
      await waitFor(
        async () => output.join('').includes('deleted 1 deliveries'),
        20_000,
        "the worker's sweep",
      );
      expect(await ids(t, 'delivery')).toEqual([recent.id]);
    } finally {
      worker.kill('SIGTERM');
      // Nest's shutdown hooks close the context, then end the process by the signal.
      expect(['0', 'SIGTERM']).toContain(await exited);
      await t.close();
      await database.drop();
    }
  }, 40_000);
});
