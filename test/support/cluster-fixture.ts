// What the scale-out specs share: the condition they run under, one cluster per spec file
// (three instances behind nginx, started in beforeAll), an owner account, and helpers for
// forms and their stored submissions.
import { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { TEST_PASSWORD } from '../factories/accounts.js';
import {
  startCluster,
  STARTUP_TIMEOUT_MS,
  type Cluster,
} from './formgate-cluster.js';
import { request, type HttpResponse } from './http.js';
import { closeLoopbackClients } from './loopback-client.js';
import { describeWhen, TEST_REDIS_URL } from './skips.js';
import { usingMysql } from './test-database.js';

export const describeCluster = describeWhen(
  usingMysql() && Boolean(TEST_REDIS_URL),
  'needs MySQL/MariaDB and Redis: set TEST_DATABASE_URL and TEST_REDIS_URL, e.g. TEST_DATABASE_URL=mariadb://root@127.0.0.1:3306 TEST_REDIS_URL=redis://127.0.0.1:6379 npm test',
);

/**
 * Each test takes a few seconds; on a machine saturated by other work (as a shared CI runner
 * can be) several times that, so the suite's default 30 s is not enough.
 */
export const TEST_TIMEOUT_MS = 120_000;

/** Submissions one client may make per window (SUBMIT_RATE_LIMIT of every instance). */
export const RATE_LIMIT = 20;
export const FIELDS = [
  { id: 'name', type: 'text', required: true },
  { id: 'email', type: 'email', required: true },
  { id: 'n', type: 'text' },
];
export const VALID = { name: 'Ada', email: 'ada@example.com' };

export interface StoredSubmission {
  id: string;
  ip: string;
  data: Record<string, unknown>;
}

export interface ClusterFixture {
  cluster: Cluster;
  /** The proxy's address: http://127.0.0.1:PORT. */
  proxy: string;
  owner: { accountId: string; email: string; apiKey: string };
  /** A management API call to `base` (the proxy or one instance). */
  api(
    base: string,
    path: string,
    apiKey: string,
    options?: { method?: string; json?: unknown },
  ): Promise<HttpResponse>;
  /** A form of the owner with FIELDS, created through the proxy. */
  createForm(name: string): Promise<{ id: string; apiKey: string }>;
  /** The form's submissions as the database holds them. */
  storedSubmissions(formId: string): Promise<StoredSubmission[]>;
}

/** Starts a cluster before the spec's tests and stops it after them. */
export function useCluster(): ClusterFixture {
  const fixture = {
    api: (base, path, apiKey, options = {}) =>
      request(`${base}/api/v1${path}`, { apiKey, ...options }),
    async createForm(name) {
      const res = await fixture.api(
        fixture.proxy,
        '/forms',
        fixture.owner.apiKey,
        {
          json: { name, fields: FIELDS },
        },
      );
      expect(res.status).toBe(201);
      return res.body as { id: string; apiKey: string };
    },
    async storedSubmissions(formId) {
      const [rows] = await fixture.cluster.db.query(
        'SELECT id, ip, data FROM submission WHERE formId = ?',
        [formId],
      );
      return (rows as Array<{ id: string; ip: string; data: unknown }>).map(
        (row) => ({
          ...row,
          data: (typeof row.data === 'string'
            ? JSON.parse(row.data)
            : row.data) as Record<string, unknown>,
        }),
      );
    },
  } as ClusterFixture;
  let release: (() => Promise<void>) | undefined;
  beforeAll(
    async () => {
      release = await oneClusterAtATime();
      fixture.cluster = await startCluster(3, {
        SUBMIT_RATE_LIMIT: String(RATE_LIMIT),
        SUBMIT_RATE_WINDOW_SECONDS: '600',
        WEBHOOK_ALLOW_PRIVATE: 'true',
        WEBHOOK_RETRY_SCHEDULE: '0.5,0.5,0.5',
        // ALTCHA solutions take milliseconds to find in the test process.
        ALTCHA_COST: '1',
      });
      fixture.proxy = fixture.cluster.proxy.url;
      fixture.owner = await fixture.cluster.cli([
        'accounts:create',
        '--email',
        `scale-${process.pid}-${Date.now()}@example.com`,
        '--password',
        TEST_PASSWORD,
      ]);
    },
    LOCK_WAIT_MS + STARTUP_TIMEOUT_MS + 30_000,
  );
  afterAll(async () => {
    closeLoopbackClients();
    try {
      await fixture.cluster?.close();
    } finally {
      await release?.();
    }
  });
  return fixture;
}

const LOCK_KEY = 'formgate-test:scale-out-cluster';
/** Longest wait for another cluster (of this run, or of another run on the machine). */
const LOCK_WAIT_MS = 240_000;
/**
 * A lock whose holder died goes by itself after this long: less than the wait, so a run
 * killed while holding it delays the next one but never fails it. (A spec file that holds
 * it longer only lets the next cluster start beside it.)
 */
const LOCK_TTL_MS = 180_000;

/**
 * One cluster at a time on this machine (the Redis server is the machine's): two clusters
 * at once, each loading three servers, would starve each other of CPU on a small machine
 * until requests miss their deadlines. Resolves with the function that lets the next go.
 */
async function oneClusterAtATime(): Promise<() => Promise<void>> {
  const redis = new Redis(TEST_REDIS_URL!, { maxRetriesPerRequest: 1 });
  const token = randomUUID();
  const deadline = Date.now() + LOCK_WAIT_MS;
  try {
    while (
      (await redis.set(LOCK_KEY, token, 'PX', LOCK_TTL_MS, 'NX')) !== 'OK'
    ) {
      if (Date.now() > deadline) {
        throw new Error(
          `Another scale-out cluster held ${LOCK_KEY} for over ${LOCK_WAIT_MS / 1000} s`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  } catch (error) {
    redis.disconnect();
    throw error;
  }
  return async () => {
    try {
      if ((await redis.get(LOCK_KEY)) === token) await redis.del(LOCK_KEY);
    } finally {
      redis.disconnect();
    }
  };
}
