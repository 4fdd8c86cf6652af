// The SQL dialect of the server a DATABASE_URL reaches, whatever its scheme. mysql:// and
// mariadb:// use the same driver and the scheme picks TypeORM's dialect, but MariaDB reports
// its schema differently from MySQL (defaults, JSON, lengths): the schema check compared in
// the MySQL dialect against a MariaDB server finds differences that are not there. The
// operator tools ask the server what it is (`SELECT VERSION()`) instead of trusting the scheme.
import { createConnection } from 'mysql2/promise';
import { DB_DEADLINE_MS } from '../common/database/database-deadline.js';
import type { DatabaseConfig } from '../config/app-config.js';

export interface ServerDialect {
  database: DatabaseConfig;
  /** Set when the scheme named another dialect than the server speaks. */
  note?: string;
}

/** `mysql` or `mariadb`, from a server's `SELECT VERSION()` (MariaDB says so in it). */
export function dialectOfVersion(version: string): 'mysql' | 'mariadb' {
  return /mariadb/i.test(version) ? 'mariadb' : 'mysql';
}

export async function serverDialect(
  database: DatabaseConfig,
): Promise<ServerDialect> {
  if (database.type === 'sqlite') return { database };
  const connection = await createConnection({
    uri: database.url,
    connectTimeout: DB_DEADLINE_MS,
  });
  let version: string;
  try {
    const [rows] = await connection.query('SELECT VERSION() AS version');
    version = (rows as Array<{ version: string }>)[0]?.version ?? '';
  } finally {
    await connection.end();
  }
  const type = dialectOfVersion(version);
  if (type === database.type) return { database };
  const scheme = database.url.slice(0, database.url.indexOf(':'));
  return {
    database: { type, url: database.url },
    note: `the server is ${type === 'mariadb' ? 'MariaDB' : 'MySQL'} (${version}): read as ${type} although DATABASE_URL starts with ${scheme}://; write ${type}:// in DATABASE_URL`,
  };
}
