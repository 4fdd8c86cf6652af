// What the durability specs share: the built server as a child process on a database that
// outlives it (an SQLite file in the spec's work directory, or a fresh MariaDB database with
// TEST_DATABASE_URL), started until it is ready, and queried from outside while it runs or
// after it was killed — each test's run set up and cleaned away by one `beginDurableRun`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { loadConfig } from '../../src/config/app-config.js';
import { buildDataSourceOptions } from '../../src/database/database-options.js';
import {
  startServer,
  statusOf,
  waitFor,
  type ServerProcess,
} from './server-process.js';
import {
  createTestDatabase,
  usingMysql,
  type TestDatabase,
} from './test-database.js';

/** The database a server process keeps its rows in: a file under `workdir` on SQLite. */
async function durableDatabase(
  workdir: string,
  file: string,
): Promise<TestDatabase> {
  return usingMysql()
    ? await createTestDatabase()
    : { url: `sqlite:${join(workdir, file)}`, drop: async () => {} };
}

/** Runs one statement on the database of `env`, on a connection of its own. */
async function queryDatabase<T>(
  env: Record<string, string>,
  sql: string,
  params: unknown[] = [],
): Promise<T[]> {
  const dataSource = new DataSource(
    buildDataSourceOptions(loadConfig({ ...env }).database, false),
  );
  await dataSource.initialize();
  try {
    return (await dataSource.query(sql, params)) as T[];
  } finally {
    await dataSource.destroy();
  }
}

/**
 * One test of a durability spec: a work directory, a database that outlives its servers,
 * the environment every server of the run gets, and the processes it started — whatever of
 * them still runs is killed by `end()`.
 */
export interface DurableRun {
  workdir: string;
  database: TestDatabase;
  /** DATABASE_URL and the spec's own variables. */
  env: Record<string, string>;
  /** Runs one statement on the run's database, from outside the servers. */
  query<T>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Starts the built server (with `extra` variables) and waits until it answers ready. */
  start(extra?: Record<string, string>): Promise<ServerProcess>;
  /** Another process of the run (a worker, the CLI), killed by `end()` if still running. */
  track(child: Killable): void;
  /** Kills the processes still running, drops the database, removes the work directory. */
  end(): Promise<void>;
}

interface Killable {
  kill(signal: NodeJS.Signals): boolean;
}

/** `env` may depend on the work directory (e.g. a STORAGE_URL inside it). */
export async function beginDurableRun(
  name: string,
  env: Record<string, string> | ((workdir: string) => Record<string, string>),
): Promise<DurableRun> {
  const workdir = mkdtempSync(join(tmpdir(), `formgate-${name}-`));
  const database = await durableDatabase(workdir, `${name}.sqlite`);
  const runEnv = {
    ...(typeof env === 'function' ? env(workdir) : env),
    DATABASE_URL: database.url,
  };
  const processes: Killable[] = [];
  return {
    workdir,
    database,
    env: runEnv,
    query: <T>(sql: string, params: unknown[] = []) =>
      queryDatabase<T>(runEnv, sql, params),
    async start(extra = {}) {
      const server = await startServer(
        { ...runEnv, ...extra },
        { cwd: workdir },
      );
      processes.push(server.child);
      await waitFor(
        async () => (await statusOf(`${server.url}/health/ready`)) === 200,
      );
      return server;
    },
    track(child) {
      processes.push(child);
    },
    async end() {
      for (const child of processes.splice(0)) child.kill('SIGKILL');
      await database.drop();
      rmSync(workdir, { recursive: true, force: true });
    },
  };
}
