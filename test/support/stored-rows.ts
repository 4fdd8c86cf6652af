// Typed readers of what the database holds, for specs that check stored state — the
// columns the API never shows (key hashes, password hashes, session token hashes)
// included. Values are normalised across SQLite and MySQL/MariaDB where the drivers
// differ (JSON as text or object, booleans as 0/1, counts as strings).
import type { TestApp } from './test-app.js';

export interface StoredForm {
  id: string;
  accountId: string;
  name: string;
  fields: unknown;
  domainVerification: boolean;
  apiKeyHash: string;
  apiKeyEncrypted: string;
  apiKeyPrefix: string;
  createdAt: string;
  updatedAt: string;
}

export interface StoredApiKey {
  accountId: string;
  name: string;
  keyHash: string;
  prefix: string;
  revokedAt: unknown;
}

/** A form's row, every column, or undefined when there is none. */
export async function storedForm(
  t: TestApp,
  id: string,
): Promise<StoredForm | undefined> {
  const [row] = await t.dataSource.query('SELECT * FROM form WHERE id = ?', [
    id,
  ]);
  if (!row) return undefined;
  return {
    ...row,
    fields:
      typeof row.fields === 'string' ? JSON.parse(row.fields) : row.fields,
    domainVerification: Boolean(Number(row.domainVerification)),
  };
}

/** Rows of `table` (all, or those whose `column` equals `value`). */
export async function countRows(
  t: TestApp,
  table:
    | 'account'
    | 'user'
    | 'membership'
    | 'form'
    | 'submission'
    | 'form_domain'
    | 'outbox_event'
    | 'stored_file',
  where?: { column: 'formId' | 'email'; value: string },
): Promise<number> {
  const from = t.dataSource.driver.escape(table);
  const [{ n }] = where
    ? await t.dataSource.query(
        `SELECT COUNT(*) AS n FROM ${from} WHERE ${where.column} = ?`,
        [where.value],
      )
    : await t.dataSource.query(`SELECT COUNT(*) AS n FROM ${from}`);
  return Number(n);
}

/** The account API keys of an account, ordered by name. */
export function storedApiKeys(
  t: TestApp,
  accountId: string,
): Promise<StoredApiKey[]> {
  return t.dataSource.query(
    'SELECT accountId, name, keyHash, prefix, revokedAt FROM account_api_key WHERE accountId = ? ORDER BY name',
    [accountId],
  );
}

/** The stored password hash of a user (an account's first owner has the account's id). */
export async function storedPasswordHash(
  t: TestApp,
  userId: string,
): Promise<string | undefined> {
  const [row] = await t.dataSource.query(
    `SELECT passwordHash FROM ${t.dataSource.driver.escape('user')} WHERE id = ?`,
    [userId],
  );
  return row?.passwordHash;
}

/** The token hashes of every stored dashboard session. */
export async function storedSessionTokenHashes(t: TestApp): Promise<string[]> {
  const rows: Array<{ tokenHash: string }> = await t.dataSource.query(
    'SELECT tokenHash FROM dashboard_session',
  );
  return rows.map((row) => row.tokenHash);
}

/** A time as a statement parameter both drivers take: "YYYY-MM-DD HH:MM:SS.mmm" in UTC. */
export function sqlTime(date: Date): string {
  return date.toISOString().replace('T', ' ').replace('Z', '');
}

/** A stored time as a Date (MySQL/MariaDB hand back a Date, SQLite its UTC text), or null. */
export function storedTime(value: Date | string | null): Date | null {
  if (value === null || value instanceof Date) return value;
  return new Date(`${value.replace(' ', 'T')}Z`);
}

/**
 * Resolves once the worker has expanded every outbox event into its deliveries: the
 * deliveries of every submission acknowledged so far exist.
 */
export async function outboxExpanded(
  t: TestApp,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await countRows(t, 'outbox_event')) > 0) {
    if (Date.now() > deadline) {
      throw new Error('Timed out waiting for the outbox events to be expanded');
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
