// A change made in batches, killed with SIGKILL halfway — a bulk delete of 40,000
// submissions, an erasure over as many — loses neither its event nor its count: the open
// event committed with each batch says exactly what is deleted, and once it has been idle
// the restarted server's audit sweep chains it, marked interrupted; audit:verify passes.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DataSource } from 'typeorm';
import { sqlDatetime } from '../../../src/common/database/sql-dates.js';
import { loadConfig } from '../../../src/config/app-config.js';
import { buildDataSourceOptions } from '../../../src/database/database-options.js';
import { seedSubmissions } from '../../../tools/submissions/seed-submissions.js';
import {
  startServer,
  statusOf,
  waitFor,
  type ServerProcess,
} from '../../support/server-process.js';
import {
  createTestDatabase,
  type TestDatabase,
} from '../../support/test-database.js';

const SECRET = 'audit-batches-durability-secret-000000001';
const CLI_JS = resolve('dist/src/cli.js');
const ROWS = 40_000;
const ADDRESS = 'leave-no-trace@example.org';

interface OpenRow {
  action: string;
  details: string;
}

describe('audit events of changes in batches across a crash (e2e, server process)', () => {
  let workdir: string;
  let database: TestDatabase;
  let env: Record<string, string>;
  let db: DataSource;
  let server: ServerProcess | undefined;

  beforeEach(async () => {
    workdir = mkdtempSync(join(tmpdir(), 'formgate-audit-batches-'));
    database = process.env.TEST_DATABASE_URL
      ? await createTestDatabase()
      : {
          url: `sqlite:${join(workdir, 'audit.sqlite')}`,
          drop: async () => {},
        };
    env = {
      APP_SECRET: SECRET,
      DATABASE_URL: database.url,
      LOG_LEVEL: 'warn',
      SWEEP_INTERVAL_SECONDS: '1',
    };
  });
  afterEach(async () => {
    if (server) {
      server.child.kill('SIGKILL');
      await server.exited;
      server = undefined;
    }
    await db?.destroy();
    await database.drop();
    rmSync(workdir, { recursive: true, force: true });
  });

  function cli(
    args: string[],
  ): Promise<{ code: number | null; stdout: string }> {
    return new Promise((resolvePromise, reject) => {
      const child = spawn(process.execPath, [CLI_JS, ...args], {
        cwd: workdir,
        env: { PATH: process.env.PATH ?? '', ...env },
      });
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.on('error', reject);
      child.on('close', (code) => resolvePromise({ code, stdout }));
      child.stdin.end('');
    });
  }

  async function started(): Promise<ServerProcess> {
    const child = await startServer(env, { cwd: workdir });
    await waitFor(
      async () => (await statusOf(`${child.url}/health/ready`)) === 200,
    );
    return child;
  }

  /** An account with one form holding ROWS submissions, each with ADDRESS in it. */
  async function seeded(): Promise<{
    accountId: string;
    apiKey: string;
    formId: string;
  }> {
    const made = await cli([
      'accounts:create',
      '--email',
      'batches-owner@example.com',
      '--password',
      'correct-horse-42',
    ]);
    expect(made.code).toBe(0);
    const { accountId, apiKey } = JSON.parse(
      made.stdout.trim().split('\n').at(-1)!,
    ) as { accountId: string; apiKey: string };
    const created = await fetch(`${server!.url}/api/v1/forms`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
      body: JSON.stringify({ name: 'many' }),
    });
    expect(created.status).toBe(201);
    const formId = ((await created.json()) as { id: string }).id;
    db = new DataSource(
      buildDataSourceOptions(loadConfig({ ...env }).database, false),
    );
    await db.initialize();
    await seedSubmissions(db, { formId, count: ROWS, seed: 7 });
    await db.query('UPDATE submission SET data = ? WHERE formId = ?', [
      JSON.stringify({ email: ADDRESS, message: 'hello' }),
      formId,
    ]);
    return { accountId, apiKey, formId };
  }

  async function remaining(formId: string): Promise<number> {
    const [row] = await db.query<{ n: number | string }[]>(
      'SELECT COUNT(*) AS n FROM submission WHERE formId = ?',
      [formId],
    );
    return Number(row.n);
  }

  /** Starts `change`, and kills the server once its event is open (a batch committed). */
  async function killedHalfway(
    change: () => Promise<unknown>,
  ): Promise<OpenRow> {
    const answer = change().catch(() => undefined);
    let open: OpenRow | undefined;
    await waitFor(
      async () => {
        [open] = await db.query<OpenRow[]>(
          'SELECT action, details FROM audit_open_event',
        );
        return open !== undefined;
      },
      60_000,
      'an open audit event',
    );
    server!.child.kill('SIGKILL');
    await server!.exited;
    server = undefined;
    await answer;
    return (
      await db.query<OpenRow[]>('SELECT action, details FROM audit_open_event')
    )[0];
  }

  async function eventsOf(accountId: string, action: string) {
    const rows = await db.query<{ details: string; actorType: string }[]>(
      'SELECT details, actorType FROM audit_event WHERE accountId = ? AND action = ? ORDER BY seq',
      [accountId, action],
    );
    return rows.map((row) => ({
      actorType: row.actorType,
      details: JSON.parse(row.details) as Record<string, unknown>,
    }));
  }

  /** As if RUN_IDLE_MS had passed since: the open event's run is taken for dead. */
  async function aged(): Promise<void> {
    await db.query('UPDATE audit_open_event SET touchedAt = ?', [
      sqlDatetime(new Date(Date.now() - 3_600_000)),
    ]);
  }

  for (const kind of ['bulk delete', 'erasure'] as const) {
    const action = kind === 'erasure' ? 'erasure.run' : 'submissions.deleted';
    it(`keeps the event of ${kind === 'erasure' ? 'an' : 'a'} ${kind} killed halfway, with what it deleted`, async () => {
      server = await started();
      const { accountId, apiKey, formId } = await seeded();
      const open = await killedHalfway(() =>
        kind === 'erasure'
          ? fetch(`${server!.url}/api/v1/erasure`, {
              method: 'POST',
              headers: {
                'content-type': 'application/json',
                'x-api-key': apiKey,
              },
              body: JSON.stringify({ email: ADDRESS }),
            })
          : fetch(`${server!.url}/api/v1/forms/${formId}/submissions`, {
              method: 'DELETE',
              headers: { 'x-api-key': apiKey },
            }),
      );
      const left = await remaining(formId);
      // Killed halfway: some batches committed, not all.
      expect(left).toBeGreaterThan(0);
      expect(left).toBeLessThan(ROWS);
      expect(open.action).toBe(action);
      expect(JSON.parse(open.details)).toMatchObject({ count: ROWS - left });
      expect(await eventsOf(accountId, action)).toEqual([]);

      await aged();
      server = await started();
      await waitFor(
        async () => (await eventsOf(accountId, action)).length > 0,
        30_000,
        `the ${action} event`,
      );
      const events = await eventsOf(accountId, action);
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({
        actorType: 'account-key',
        details: { count: ROWS - left, interrupted: true },
      });
      if (kind === 'erasure') {
        expect(events[0].details).toMatchObject({ forms: 1 });
        expect(JSON.stringify(events)).not.toContain(ADDRESS);
      }
      expect(await db.query('SELECT id FROM audit_open_event')).toEqual([]);
      const verified = await cli(['audit:verify']);
      expect(verified.code).toBe(0);
    }, 180_000);
  }
});
