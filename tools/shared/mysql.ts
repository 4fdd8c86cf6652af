// The MySQL/MariaDB database a benchmark runs against, made from a server URL.
import { createConnection, type ConnectionOptions } from 'mysql2/promise';

/** mysql2 options of a mysql:// or mariadb:// URL (its database, when it names one). */
export function connectionOptions(url: string): ConnectionOptions {
  const parsed = new URL(url);
  const database = decodeURIComponent(parsed.pathname.slice(1));
  return {
    host: parsed.hostname,
    port: Number(parsed.port || 3306),
    user: decodeURIComponent(parsed.username),
    password: decodeURIComponent(parsed.password),
    ...(database ? { database } : {}),
    timezone: 'Z',
  };
}

/**
 * Creates database `name` on the server of `url` (utf8mb4) — afresh when `recreate` —
 * and answers `url` with that database as its path.
 */
export async function ensureDatabase(
  url: string,
  name: string,
  { recreate = false }: { recreate?: boolean } = {},
): Promise<string> {
  if (!/^[A-Za-z0-9_]+$/.test(name))
    throw new Error(`Unusable database name "${name}"`);
  const parsed = new URL(url);
  parsed.pathname = '/';
  const connection = await createConnection(
    connectionOptions(parsed.toString()),
  );
  try {
    if (recreate) await connection.query(`DROP DATABASE IF EXISTS \`${name}\``);
    await connection.query(
      `CREATE DATABASE IF NOT EXISTS \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`,
    );
  } finally {
    await connection.end();
  }
  parsed.pathname = `/${name}`;
  return parsed.toString();
}
