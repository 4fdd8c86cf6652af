// The MySQL/MariaDB database a benchmark runs against, made from a server URL.
import {
  createConnection,
  createPool,
  type ConnectionOptions,
  type Pool,
  type PoolOptions,
} from 'mysql2/promise';
import type { RowDataPacket } from 'mysql2';
import type { FieldDefinition } from '../../src/forms/form.entity.js';

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
  if (!/^[A-Za-z0-9_]+$/.test(name)) {
    throw new Error(`Unusable database name "${name}"`);
  }
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

/** The pool a bare benchmark server writes through: 10 connections, utf8mb4, UTC. */
export function benchPool(url: string, extra: PoolOptions = {}): Pool {
  return createPool({
    ...connectionOptions(url),
    connectionLimit: 10,
    charset: 'utf8mb4_unicode_ci',
    ...extra,
  });
}

/** A form's stored field definitions, as a bare benchmark server validates with them. */
export async function formFields(
  pool: Pool,
  formId: string,
): Promise<FieldDefinition[]> {
  const [rows] = await pool.query<RowDataPacket[]>(
    'SELECT fields FROM form WHERE id = ?',
    [formId],
  );
  if (rows.length === 0) throw new Error(`form ${formId} not found`);
  const stored: unknown = rows[0].fields;
  return (
    typeof stored === 'string' ? JSON.parse(stored) : stored
  ) as FieldDefinition[];
}
