// The MySQL/MariaDB database a benchmark runs against, made from a server URL.
import { createConnection } from 'mysql2/promise';

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
  const connection = await createConnection({
    host: parsed.hostname,
    port: Number(parsed.port || 3306),
    user: decodeURIComponent(parsed.username),
    password: decodeURIComponent(parsed.password),
  });
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
