// An acknowledged submission is durable, with batching: the built server runs as a child
// process under concurrent load on the test database (an SQLite file, or MariaDB with
// TEST_DATABASE_URL); every id it acknowledged must be stored after a SIGKILL, and SIGTERM
// answers what is in flight, writes the queue out, then exits 0.
import {
  beginDurableRun,
  type DurableRun,
} from '../../support/durable-server.js';
import { waitFor, type ServerProcess } from '../../support/server-process.js';

const SECRET = 'durability-test-secret-durability-test-0123';
const FORM_ID = 'durableform';
const LANES = 32;

describe('acknowledged submissions under load (e2e, server process)', () => {
  let run: DurableRun;

  beforeEach(async () => {
    run = await beginDurableRun('durability', {
      APP_SECRET: SECRET,
      SUBMIT_RATE_LIMIT: '1000000',
      LOG_LEVEL: 'debug',
    });
  });
  afterEach(() => run.end());

  const query = <T>(sql: string) => run.query<T>(sql);

  async function startWithForm(): Promise<ServerProcess> {
    const server = await run.start();
    // The account and form go straight into the running server's database.
    await query(
      "INSERT INTO account (id, name, createdAt, updatedAt) VALUES ('acc', 'k@example.com', '2026-01-01 00:00:00.000', '2026-01-01 00:00:00.000')",
    );
    await query(
      `INSERT INTO form (id, accountId, name, fields, domainVerification, apiKeyHash, apiKeyEncrypted, apiKeyPrefix, createdAt, updatedAt) VALUES ('${FORM_ID}', 'acc', 'Durable', '[]', 0, 'h', 'e', 'fgk_x', '2026-01-01 00:00:00.000', '2026-01-01 00:00:00.000')`,
    );
    return server;
  }

  /** LANES clients posting numbered submissions back to back until told to stop. */
  function load(server: ServerProcess) {
    const acknowledged: string[] = [];
    let stop = false;
    const post = async (n: number) => {
      const res = await fetch(`${server.url}/api/submit/${FORM_ID}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ n: String(n) }),
      }).catch(() => undefined);
      if (res === undefined) return false;
      const ok = res.status === 200;
      await res.arrayBuffer().catch(() => undefined);
      if (ok) acknowledged.push(String(n));
      return true;
    };
    const lanes = Array.from({ length: LANES }, async (_, lane) => {
      for (let n = lane; !stop; n += LANES) {
        if (!(await post(n))) return;
      }
    });
    return {
      acknowledged,
      async stop() {
        stop = true;
        await Promise.all(lanes);
      },
    };
  }

  async function storedNumbers(): Promise<Set<string>> {
    const rows = await query<{ data: string | { n: string } }>(
      `SELECT data FROM submission WHERE formId = '${FORM_ID}'`,
    );
    return new Set(
      rows.map(
        (row) =>
          (typeof row.data === 'string'
            ? (JSON.parse(row.data) as { n: string })
            : row.data
          ).n,
      ),
    );
  }

  /** The sizes of the batches the server logged committing. */
  function batchSizes(server: ServerProcess): number[] {
    return [
      ...server.stdout().matchAll(/Committed a batch of (\d+) submissions/g),
    ].map((match) => Number(match[1]));
  }

  it('loses no acknowledged submission when killed with SIGKILL', async () => {
    const server = await startWithForm();
    const traffic = load(server);
    await waitFor(
      async () => traffic.acknowledged.length >= 300,
      30_000,
      '300 acknowledged submissions',
    );
    server.child.kill('SIGKILL');
    await server.exited;
    await traffic.stop();

    // The load was concurrent enough for submissions to share a commit.
    expect(Math.max(...batchSizes(server))).toBeGreaterThan(1);
    const stored = await storedNumbers();
    expect(traffic.acknowledged.length).toBeGreaterThanOrEqual(300);
    expect(traffic.acknowledged.filter((n) => !stored.has(n))).toEqual([]);
  });

  it('answers what is in flight on SIGTERM, writes the queue out, then exits 0', async () => {
    const server = await startWithForm();
    const traffic = load(server);
    await waitFor(
      async () => traffic.acknowledged.length >= 100,
      30_000,
      '100 acknowledged submissions',
    );
    const atSignal = traffic.acknowledged.length;
    server.child.kill('SIGTERM');
    const code = await server.exited;
    await traffic.stop();

    expect(code).toBe(0);
    expect(server.stdout()).toContain('Received SIGTERM');
    // Requests in flight when the signal came were still answered, and stored.
    expect(traffic.acknowledged.length).toBeGreaterThan(atSignal);
    const stored = await storedNumbers();
    expect(traffic.acknowledged.filter((n) => !stored.has(n))).toEqual([]);
  });
});
