// What the durability specs share: the built server as a child process on a database that
// outlives it (an SQLite file in the spec's work directory, or a fresh MariaDB database with
// TEST_DATABASE_URL), started until it is ready, and queried from outside while it runs or
// after it was killed.
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
export async function durableDatabase(
  workdir: string,
  file: string,
): Promise<TestDatabase> {
  return usingMysql()
    ? await createTestDatabase()
    : { url: `sqlite:${join(workdir, file)}`, drop: async () => {} };
}

/** Runs one statement on the database of `env`, on a connection of its own. */
export async function queryDatabase<T>(
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

/** Starts the built server in `workdir` and waits until it answers ready. */
export async function startReadyServer(
  env: Record<string, string>,
  workdir: string,
): Promise<ServerProcess> {
  const server = await startServer(env, { cwd: workdir });
  await waitFor(
    async () => (await statusOf(`${server.url}/health/ready`)) === 200,
  );
  return server;
}
