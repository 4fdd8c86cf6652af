// Notifications survive a crash: the built server runs as a child process, is killed with
// SIGKILL while deliveries are pending and in flight, or while outbox events wait to be
// expanded, and after a restart every acknowledged submission's webhook arrives, its
// delivery made once (a repeat carries the same webhook-id). On
// MariaDB, two `npm run worker` processes share the outbox without ever sending one
// delivery twice at the same time.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { SecretBoxService } from '../../../src/auth/secret-box.service.js';
import type { AppConfig } from '../../../src/config/app-config.js';
import { newWebhookSecret } from '../../../src/notifications/webhooks/signing.js';
import {
  beginDurableRun,
  type DurableRun,
} from '../../support/durable-server.js';
import { describeWhen } from '../../support/skips.js';
import { waitFor, type ServerProcess } from '../../support/server-process.js';
import { NEEDS_MYSQL, usingMysql } from '../../support/test-database.js';
import {
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../support/webhook-receiver.js';

const SECRET = 'notify-durability-secret-notify-durability-01';
const FORM_ID = 'notifyform';
const STAMP = '2026-01-01 00:00:00.000';

describe('webhook deliveries across crashes (e2e, server process)', () => {
  let run: DurableRun;
  let receiver: WebhookReceiver;

  beforeEach(async () => {
    run = await beginDurableRun('notify', {
      APP_SECRET: SECRET,
      SUBMIT_RATE_LIMIT: '1000000',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_RETRY_SCHEDULE: '0.5,0.5,0.5,0.5,0.5,0.5,0.5,0.5',
      LOG_LEVEL: 'warn',
    });
    receiver = await startWebhookReceiver({ delayMs: 150 });
  });
  afterEach(async () => {
    await run.end();
    await receiver.close();
  });

  const query = <T>(sql: string, params: unknown[] = []) =>
    run.query<T>(sql, params);
  const start = (extra: Record<string, string> = {}) => run.start(extra);

  /**
   * The account, form and webhooks (`hooks` of them, all to the receiver) go straight into
   * the running server's database.
   */
  async function seed(hooks = 1): Promise<void> {
    await query(
      `INSERT INTO account (id, name, createdAt, updatedAt) VALUES ('acc', 'n@example.com', '${STAMP}', '${STAMP}')`,
    );
    await query(
      `INSERT INTO form (id, accountId, name, fields, domainVerification, apiKeyHash, apiKeyEncrypted, apiKeyPrefix, createdAt, updatedAt) VALUES ('${FORM_ID}', 'acc', 'Notify', '[]', 0, 'h', 'e', 'fgk_x', '${STAMP}', '${STAMP}')`,
    );
    const secret = newWebhookSecret();
    receiver.secrets.push(secret);
    const sealed = new SecretBoxService({
      appSecret: SECRET,
    } as AppConfig).encrypt(secret);
    for (let i = 0; i < hooks; i += 1) {
      await query(
        `INSERT INTO webhook (id, formId, url, enabled, secretEncrypted, createdAt, updatedAt) VALUES (?, '${FORM_ID}', ?, 1, ?, '${STAMP}', '${STAMP}')`,
        [i === 0 ? 'hook' : `hook${i}`, receiver.url, sealed],
      );
    }
  }

  async function submitMany(server: ServerProcess, count: number) {
    const acknowledged: string[] = [];
    await Promise.all(
      Array.from({ length: 8 }, async (_, lane) => {
        for (let n = lane; n < count; n += 8) {
          const res = await fetch(`${server.url}/api/submit/${FORM_ID}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ n: String(n) }),
          });
          await res.arrayBuffer();
          if (res.status === 200) acknowledged.push(String(n));
        }
      }),
    );
    return acknowledged;
  }

  /** Submission number → the webhook-ids of the verified requests about it. */
  function idsBySubmission(): Map<string, Set<string>> {
    const map = new Map<string, Set<string>>();
    for (const r of receiver.received) {
      if (r.verified === null) continue;
      const n = (r.verified as { data: { data: { n: string } } }).data.data.n;
      map.set(n, (map.get(n) ?? new Set()).add(r.id));
    }
    return map;
  }

  it('delivers every acknowledged submission after a SIGKILL and a restart', async () => {
    const first = await start({ WORKER_CONCURRENCY: '4' });
    await seed();
    const acknowledged = await submitMany(first, 60);
    expect(acknowledged).toHaveLength(60);
    first.child.kill('SIGKILL');
    await first.exited;
    // Killed while deliveries were still pending or in flight.
    const delivered = await query<{ n: number }>(
      "SELECT COUNT(*) AS n FROM delivery WHERE status = 'succeeded'",
    );
    expect(Number(delivered[0].n)).toBeLessThan(60);

    await start();
    await waitFor(
      async () => {
        const rows = await query<{ n: number }>(
          "SELECT COUNT(*) AS n FROM delivery WHERE status = 'succeeded'",
        );
        return Number(rows[0].n) === 60;
      },
      40_000,
      'every delivery to succeed after the restart',
    );
    const byN = idsBySubmission();
    expect(acknowledged.filter((n) => !byN.has(n))).toEqual([]);
    // A repeat (sent before the crash, unrecorded) carries the same webhook-id.
    expect([...byN.values()].filter((ids) => ids.size !== 1)).toEqual([]);
  }, 90_000);

  it("makes and sends each acknowledged submission's delivery once across crashes before and during expansion", async () => {
    // Killed with every event still waiting (no worker ran).
    const first = await start({ WORKER_ENABLED: 'false' });
    await seed();
    const acknowledged = await submitMany(first, 60);
    expect(acknowledged).toHaveLength(60);
    first.child.kill('SIGKILL');
    await first.exited;
    const waiting = await query<{ n: number }>(
      'SELECT COUNT(*) AS n FROM outbox_event',
    );
    expect(Number(waiting[0].n)).toBeGreaterThan(0);
    expect(
      Number(
        (await query<{ n: number }>('SELECT COUNT(*) AS n FROM delivery'))[0].n,
      ),
    ).toBe(0);

    // Killed again while the worker expands and sends.
    const second = await start({ WORKER_CONCURRENCY: '2' });
    await waitFor(
      async () => receiver.received.length > 0,
      20_000,
      'the first webhook to arrive',
    );
    second.child.kill('SIGKILL');
    await second.exited;

    await start();
    await waitFor(
      async () => {
        const rows = await query<{ n: number }>(
          "SELECT COUNT(*) AS n FROM delivery WHERE status = 'succeeded'",
        );
        return Number(rows[0].n) === 60;
      },
      40_000,
      'every delivery to succeed after the restarts',
    );
    expect(
      Number(
        (
          await query<{ n: number }>('SELECT COUNT(*) AS n FROM outbox_event')
        )[0].n,
      ),
    ).toBe(0);
    // One delivery row per submission: nothing made twice.
    expect(
      Number(
        (await query<{ n: number }>('SELECT COUNT(*) AS n FROM delivery'))[0].n,
      ),
    ).toBe(60);
    const byN = idsBySubmission();
    expect(acknowledged.filter((n) => byN.get(n)?.size !== 1)).toEqual([]);
  }, 120_000);

  describeWhen(usingMysql(), NEEDS_MYSQL)('two worker processes', () => {
    it('never send one delivery twice at the same time', async () => {
      const server = await start({ WORKER_ENABLED: 'false' });
      // Four webhooks: a worker sends at most two at once to one of them.
      await seed(4);
      const acknowledged = await submitMany(server, 40);
      expect(acknowledged).toHaveLength(40);
      const workers = [0, 1].map(() => {
        const child = spawn(process.execPath, [resolve('dist/src/worker.js')], {
          cwd: run.workdir,
          env: {
            PATH: process.env.PATH ?? '',
            ...run.env,
            WORKER_CONCURRENCY: '4',
          },
          stdio: 'ignore',
        });
        run.track(child);
        return child;
      });
      await receiver.waitForSuccesses(160, 40_000);
      for (const child of workers) child.kill('SIGTERM');
      expect(receiver.maxSameIdInFlight).toBe(1);
      // Both workers sent: one alone never has more than 4 requests open.
      expect(receiver.maxOpen).toBeGreaterThan(4);
      const byN = idsBySubmission();
      expect(acknowledged.filter((n) => byN.get(n)?.size !== 4)).toEqual([]);
      expect(receiver.received).toHaveLength(160);
    }, 90_000);
  });
});
