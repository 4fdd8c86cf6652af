// REDIS_URL: rate-limit counters shared by every instance, and Redis as an optional
// dependency (fail open within a second, one warning per outage, limiting resumes).
// Runs when TEST_REDIS_URL names a Redis server (CI: redis://127.0.0.1:6379); the outage
// tests start and stop a redis-server of their own and never touch the shared one.
import { Redis } from 'ioredis';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Submission } from '../../../src/submissions/submission.entity.js';
import { createAccount } from '../../factories/accounts.js';
import { createForm } from '../../factories/forms.js';
import { request, type HttpResponse } from '../../support/http.js';
import {
  describeWhen,
  NEEDS_REDIS,
  TEST_REDIS_URL,
} from '../../support/skips.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import {
  createTestDatabase,
  usingMysql,
  type TestDatabase,
} from '../../support/test-database.js';

const SHARED_REDIS = TEST_REDIS_URL;
const describeRedis = describeWhen(Boolean(SHARED_REDIS), NEEDS_REDIS);

const VALID = { name: 'Ada', email: 'ada@example.com' };
const UNREACHABLE = /Redis is unreachable/;
const RESUMED = /Redis is reachable again/;

/** A Redis URL with a key prefix of its own, so test runs never share counters. */
function withKeyPrefix(url: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set(
    'keyPrefix',
    `formgate-test-${process.pid}-${randomBytes(4).toString('hex')}:`,
  );
  return parsed.toString();
}

/** One database two app instances can share (a temporary SQLite file by default). */
async function sharedDatabase(): Promise<TestDatabase> {
  if (usingMysql()) return createTestDatabase();
  const dir = mkdtempSync(join(tmpdir(), 'formgate-submit-'));
  return {
    url: `sqlite:${join(dir, 'shared.sqlite')}`,
    drop: () => Promise.resolve(rmSync(dir, { recursive: true, force: true })),
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** A throwaway redis-server on loopback that the test may stop, freeze and restart. */
class OwnRedis {
  private child: ChildProcess | undefined;
  constructor(readonly port: number) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const child = spawn(
      'redis-server',
      [
        '--port',
        String(this.port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
      ],
      { stdio: 'ignore' },
    );
    this.child = child;
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', reject);
    });
    // Ready when it answers PING.
    for (let attempt = 0; ; attempt += 1) {
      const probe = new Redis(this.url, {
        lazyConnect: true,
        maxRetriesPerRequest: 0,
        retryStrategy: () => null,
      });
      probe.on('error', () => undefined);
      try {
        await probe.connect();
        await probe.ping();
        return;
      } catch (error) {
        if (attempt >= 100) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50));
      } finally {
        probe.disconnect();
      }
    }
  }

  async stop(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  freeze(): void {
    this.child?.kill('SIGSTOP');
  }

  thaw(): void {
    this.child?.kill('SIGCONT');
  }

  async connectedClients(): Promise<number> {
    const admin = new Redis(this.url, { maxRetriesPerRequest: 0 });
    try {
      const info = await admin.info('clients');
      // Minus this admin connection.
      return Number(/connected_clients:(\d+)/.exec(info)?.[1]) - 1;
    } finally {
      admin.disconnect();
    }
  }
}

async function timed(
  run: () => Promise<HttpResponse>,
): Promise<{ res: HttpResponse; ms: number }> {
  const started = performance.now();
  const res = await run();
  return { res, ms: performance.now() - started };
}

function countLogs(t: TestApp, pattern: RegExp): number {
  return t.logs.filter((line) => pattern.test(line)).length;
}

describeRedis('submit rate limit with Redis (e2e)', () => {
  describe('two instances sharing one Redis and one database', () => {
    let database: TestDatabase;
    let a: TestApp;
    let b: TestApp;
    let formId: string;

    beforeAll(async () => {
      database = await sharedDatabase();
      const env = { REDIS_URL: withKeyPrefix(SHARED_REDIS!) };
      a = await createTestApp({ database, env });
      b = await createTestApp({ database, env });
      const { account } = await createAccount(a);
      formId = (await createForm(a, account.id)).form.id;
    });
    afterAll(async () => {
      await a?.close();
      await b?.close();
      await database?.drop();
    });

    it('allows exactly 10 submissions together', async () => {
      const statuses: number[] = [];
      const left: string[] = [];
      for (let i = 0; i < 14; i += 1) {
        const app = i % 2 === 0 ? a : b;
        const res = await request(`${app.url}/api/submit/${formId}`, {
          json: VALID,
        });
        statuses.push(res.status);
        left.push(res.headers.get('x-ratelimit-remaining') ?? '');
        if (res.status === 429) {
          expect(res.body.error).toMatch(/^Too many submissions: /);
          expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
        }
      }
      expect(statuses).toEqual([...Array(10).fill(200), ...Array(4).fill(429)]);
      expect(left).toEqual([
        '9',
        '8',
        '7',
        '6',
        '5',
        '4',
        '3',
        '2',
        '1',
        '0',
        '0',
        '0',
        '0',
        '0',
      ]);
      const stored = await a.dataSource
        .getRepository(Submission)
        .countBy({ formId });
      expect(stored).toBe(10);
      expect(countLogs(a, UNREACHABLE) + countLogs(b, UNREACHABLE)).toBe(0);
    });
  });

  describe('when Redis goes away', () => {
    let redis: OwnRedis;
    let t: TestApp;
    let url: string;

    beforeAll(async () => {
      redis = new OwnRedis(await freePort());
      await redis.start();
      t = await createTestApp({ env: { REDIS_URL: redis.url } });
      const { account } = await createAccount(t);
      url = `${t.url}/api/submit/${(await createForm(t, account.id)).form.id}`;
    });
    afterAll(async () => {
      redis.thaw();
      await t?.close();
      await redis?.stop();
    });

    it('keeps accepting submissions within a second, warns once, and resumes limiting', async () => {
      const counted = await request(url, { json: VALID });
      expect(counted.status).toBe(200);
      expect(counted.headers.get('x-ratelimit-remaining')).toBe('9');

      await redis.stop();
      for (let i = 0; i < 12; i += 1) {
        const { res, ms } = await timed(() => request(url, { json: VALID }));
        expect(res.status).toBe(200);
        expect(res.body).toEqual({
          success: true,
          message: 'Submission received',
        });
        expect(ms).toBeLessThan(1000);
        expect(res.headers.get('x-ratelimit-limit')).toBe('10');
      }
      expect(countLogs(t, UNREACHABLE)).toBe(1);
      const warning = JSON.parse(
        t.logs.find((line) => UNREACHABLE.test(line))!,
      );
      expect(warning.level).toBe(40);

      // Back (empty, as a restarted cache would be): counting starts again.
      await redis.start();
      let res: HttpResponse | undefined;
      for (let attempt = 0; attempt < 100; attempt += 1) {
        res = await request(url, { json: VALID });
        if (res.headers.get('x-ratelimit-remaining') !== '10') break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(res!.status).toBe(200);
      expect(res!.headers.get('x-ratelimit-remaining')).toBe('9');
      expect(countLogs(t, RESUMED)).toBe(1);
      for (let i = 0; i < 9; i += 1) {
        expect((await request(url, { json: VALID })).status).toBe(200);
      }
      expect((await request(url, { json: VALID })).status).toBe(429);
    });

    it('does not wait on a Redis that stopped answering', async () => {
      const before = countLogs(t, UNREACHABLE);
      redis.freeze();
      try {
        for (let i = 0; i < 3; i += 1) {
          const { res, ms } = await timed(() =>
            request(`${t.url}/api/submit/no-such-form`, { json: VALID }),
          );
          // Served (no 429 although the budget is spent): the limit failed open.
          expect(res.status).toBe(404);
          expect(ms).toBeLessThan(1000);
        }
        expect(countLogs(t, UNREACHABLE)).toBe(before + 1);
      } finally {
        redis.thaw();
      }
    });

    it('closes its Redis connections when the app shuts down', async () => {
      const before = await redis.connectedClients();
      const other = await createTestApp({ env: { REDIS_URL: redis.url } });
      // Rate-limit counters, and the form-changes channel (publisher and subscriber).
      expect(await redis.connectedClients()).toBe(before + 3);
      await other.close();
      expect(await redis.connectedClients()).toBe(before);
    });
  });
});
