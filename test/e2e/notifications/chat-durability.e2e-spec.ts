// Chat messages survive a crash: the built server runs as a child process and is killed
// with SIGKILL while chat deliveries are pending and in flight; after a restart every
// acknowledged submission's message has reached the (stand-in) provider, from exactly one
// delivery per submission and channel. A provider has no idempotency key, so a message
// whose send was in flight at the kill may arrive twice: at most one repeat per send slot.
import { SecretBoxService } from '../../../src/auth/secret-box.service.js';
import type { AppConfig } from '../../../src/config/app-config.js';
import {
  startChatReceiver,
  type ChatReceiver,
} from '../../support/chat-receiver.js';
import {
  beginDurableRun,
  type DurableRun,
} from '../../support/durable-server.js';
import { waitFor, type ServerProcess } from '../../support/server-process.js';

const SECRET = 'chat-durability-secret-chat-durability-0123';
const FORM_ID = 'chatform';
const STAMP = '2026-01-01 00:00:00.000';
const CONCURRENCY = 4;

describe('chat deliveries across crashes (e2e, server process)', () => {
  let run: DurableRun;
  let chat: ChatReceiver;

  beforeEach(async () => {
    chat = await startChatReceiver({ delayMs: 150 });
    run = await beginDurableRun('chat', {
      APP_SECRET: SECRET,
      SUBMIT_RATE_LIMIT: '1000000',
      WEBHOOK_RETRY_SCHEDULE: '0.5,0.5,0.5,0.5,0.5,0.5,0.5,0.5',
      WORKER_CONCURRENCY: String(CONCURRENCY),
      LOG_LEVEL: 'warn',
      ...chat.env(),
    });
  });
  afterEach(async () => {
    await run.end();
    await chat.close();
  });

  const query = <T>(sql: string, params: unknown[] = []) =>
    run.query<T>(sql, params);
  const start = () => run.start();

  async function seed(): Promise<void> {
    await query(
      `INSERT INTO account (id, name, createdAt, updatedAt) VALUES ('acc', 'n@example.com', '${STAMP}', '${STAMP}')`,
    );
    await query(
      `INSERT INTO form (id, accountId, name, fields, domainVerification, apiKeyHash, apiKeyEncrypted, apiKeyPrefix, createdAt, updatedAt) VALUES ('${FORM_ID}', 'acc', 'Chat', '[]', 0, 'h', 'e', 'fgk_x', '${STAMP}', '${STAMP}')`,
    );
    const sealed = new SecretBoxService({
      appSecret: SECRET,
    } as AppConfig).encrypt(JSON.stringify({ url: chat.urls.slack }));
    await query(
      `INSERT INTO chat_channel (id, formId, kind, name, target, secretEncrypted, enabled, createdAt) VALUES ('chan', '${FORM_ID}', 'slack', 'slack', 'x', ?, 1, '${STAMP}')`,
      [sealed],
    );
  }

  async function submitMany(server: ServerProcess, count: number) {
    const acknowledged: string[] = [];
    await Promise.all(
      Array.from({ length: 8 }, async (_, lane) => {
        for (let n = lane; n < count; n += 8) {
          const res = await fetch(`${server.url}/api/submit/${FORM_ID}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ n: `m${n}` }),
          });
          await res.arrayBuffer();
          if (res.status === 200) acknowledged.push(`m${n}`);
        }
      }),
    );
    return acknowledged;
  }

  /** Submission number → how many messages about it arrived. */
  function arrivals(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const r of chat.received) {
      const match = /"n: (m\d+)"/.exec(r.body);
      if (match) counts.set(match[1], (counts.get(match[1]) ?? 0) + 1);
    }
    return counts;
  }

  it('posts every acknowledged submission after a SIGKILL and a restart, from one delivery each', async () => {
    const first = await start();
    await seed();
    const acknowledged = await submitMany(first, 40);
    expect(acknowledged).toHaveLength(40);
    await waitFor(
      async () => chat.received.length > 0,
      20_000,
      'the first message to arrive',
    );
    first.child.kill('SIGKILL');
    await first.exited;
    const sentBefore = chat.received.length;
    expect(sentBefore).toBeLessThan(40);

    await start();
    await waitFor(
      async () => {
        const rows = await query<{ n: number }>(
          "SELECT COUNT(*) AS n FROM delivery WHERE channel = 'chat' AND status = 'succeeded'",
        );
        return Number(rows[0].n) === 40;
      },
      60_000,
      'every chat delivery to succeed after the restart',
    );
    const rows = await query<{ n: number }>(
      "SELECT COUNT(*) AS n FROM delivery WHERE channel = 'chat'",
    );
    expect(Number(rows[0].n)).toBe(40);
    const counts = arrivals();
    expect(acknowledged.filter((n) => !counts.has(n))).toEqual([]);
    const repeats = [...counts.values()].filter((c) => c > 1);
    // Only a send in flight at the kill can have been made twice, never more than twice.
    expect(repeats.length).toBeLessThanOrEqual(CONCURRENCY);
    expect(repeats.every((c) => c === 2)).toBe(true);
  }, 120_000);
});
