import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';

export interface TestDatabase {
  /** A DATABASE_URL for the app. */
  url: string;
  drop(): Promise<void>;
}

/**
 * A fresh, empty database: `sqlite::memory:` unless TEST_DATABASE_URL names a MySQL or
 * MariaDB server (e.g. mariadb://root@127.0.0.1:3306), where a uniquely named database is
 * created with utf8mb4 and dropped by `drop()`. `shared`: several app instances will use
 * it at once, so SQLite gets a file in a temporary folder instead of memory.
 */
export async function createTestDatabase(
  options: { shared?: boolean } = {},
): Promise<TestDatabase> {
  const server = process.env.TEST_DATABASE_URL;
  if (!server && options.shared) {
    const dir = mkdtempSync(join(tmpdir(), 'formgate-test-'));
    return {
      url: `sqlite:${join(dir, 'shared.sqlite')}`,
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  if (!server) return { url: 'sqlite::memory:', drop: async () => {} };
  const base = new URL(server);
  const name = `formgate_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = () =>
    createConnection({
      host: base.hostname,
      port: Number(base.port || 3306),
      user: decodeURIComponent(base.username),
      password: decodeURIComponent(base.password),
    });
  const connection = await admin();
  await connection.query(
    `CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`,
  );
  await connection.end();
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = await admin();
      await c.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await c.end();
    },
  };
}

export const usingMysql = (): boolean => Boolean(process.env.TEST_DATABASE_URL);

export const NEEDS_MYSQL =
  'needs a MySQL or MariaDB server: set TEST_DATABASE_URL, e.g. TEST_DATABASE_URL=mariadb://root@127.0.0.1:3306 npm test';
