// The statements the commit queue's writers run on the submit path, for one dialect, that
// no repository builds: a batch's submissions, its forms' honeypot counts, its
// Idempotency-Key rows (IDEMPOTENCY_COLUMNS) and the removal of one whose submission failed,
// and (MySQL/MariaDB) its files. Built once, when a writer starts, as text alone: the SQLite
// writer prepares them, the MySQL/MariaDB one sends them with their values (`VALUES ?`,
// expanded by the driver).
import { quoteIdentifier } from '../../common/database/sql-identifier.js';
import type { SqlDialect } from '../../common/database/sql-statement.js';
import { STORED_FILE_COLUMNS } from '../../files/stored-file-sql.js';
import { IDEMPOTENCY_COLUMNS } from '../../idempotency/idempotency-record-sql.js';

const SUBMISSION_COLUMNS = [
  'id',
  'formId',
  'data',
  'ip',
  'userAgent',
  'origin',
  'createdAt',
  'spam',
  'spamReasons',
] as const;

export class CommitSql {
  /** SQLite: one submission; MySQL/MariaDB: the batch's, as `VALUES ?`. */
  readonly insertSubmissions: string;
  /** Adds (count, formId) to a form's honeypot count. */
  readonly countHoneypot: string;
  /** SQLite: one record; MySQL/MariaDB: the batch's, as `VALUES ?`. */
  readonly insertIdempotency: string;
  /** A record whose submission failed: (id). */
  readonly deleteIdempotency: string;
  /** MySQL/MariaDB: the batch's files, as `VALUES ?` (SQLite: StoredFileSql.insert). */
  readonly insertFiles: string;

  constructor(readonly dialect: SqlDialect) {
    const q = (name: string) => quoteIdentifier(dialect, name);
    const values = (columns: readonly string[]) =>
      dialect === 'sqlite' ? `(${columns.map(() => '?').join(', ')})` : '?';
    const insert = (table: string, columns: readonly string[]) =>
      `INSERT INTO ${q(table)} (${columns.map(q).join(', ')}) VALUES ${values(columns)}`;
    this.insertSubmissions = insert('submission', SUBMISSION_COLUMNS);
    this.countHoneypot = `UPDATE ${q('form')} SET ${q('honeypotHits')} = ${q('honeypotHits')} + ? WHERE ${q('id')} = ?`;
    this.insertIdempotency = insert('idempotency_record', IDEMPOTENCY_COLUMNS);
    this.deleteIdempotency = `DELETE FROM ${q('idempotency_record')} WHERE ${q('id')} = ?`;
    this.insertFiles = insert('stored_file', STORED_FILE_COLUMNS);
  }
}
