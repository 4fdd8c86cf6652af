// The statements on idempotency_record for one dialect. They are built once, at start, and
// run as prepared statements (the lookup is on submit's path), so each is SQL text alone.
import { quoteIdentifier } from '../common/database/sql-identifier.js';
import type { SqlDialect } from '../common/database/sql-statement.js';

/** The columns in the order the writers insert them. */
export const IDEMPOTENCY_COLUMNS = [
  'id',
  'fingerprint',
  'status',
  'response',
  'createdAt',
  'expiresAt',
] as const;

export class IdempotencyRecordSql {
  /** A key's record unless it expired: (id, now). */
  readonly select: string;
  /** A new record: IDEMPOTENCY_COLUMNS. */
  readonly insert: string;
  /** A key's record once expired: (id, now). */
  readonly deleteExpired: string;
  /** A claimed record's answer: (status, response, expiresAt, id). */
  readonly complete: string;
  /** A claimed record still without an answer: (id). */
  readonly release: string;

  constructor(readonly dialect: SqlDialect) {
    const q = (name: string) => quoteIdentifier(dialect, name);
    const table = q('idempotency_record');
    this.select = `SELECT ${q('fingerprint')}, ${q('status')}, ${q('response')} FROM ${table} WHERE ${q('id')} = ? AND ${q('expiresAt')} > ?`;
    this.insert = `INSERT INTO ${table} (${IDEMPOTENCY_COLUMNS.map(q).join(', ')}) VALUES (?, ?, ?, ?, ?, ?)`;
    this.deleteExpired = `DELETE FROM ${table} WHERE ${q('id')} = ? AND ${q('expiresAt')} <= ?`;
    this.complete = `UPDATE ${table} SET ${q('status')} = ?, ${q('response')} = ?, ${q('expiresAt')} = ? WHERE ${q('id')} = ?`;
    this.release = `DELETE FROM ${table} WHERE ${q('id')} = ? AND ${q('status')} IS NULL`;
  }
}
