// The SQL of the storage reservations (storage_reservation), for both dialects, built
// without a connection so that storage-reservation-sql.spec.ts can snapshot it. A
// reservation is one UPDATE whose WHERE holds the cap, counting the account's stored files
// and every reservation in progress: the database applies concurrent ones one after
// another, each seeing what the previous one left, so racing uploads never pass the cap.
import type {
  SqlDialect,
  SqlStatement,
} from '../../common/database/sql-statement.js';
import { sqlDatetime } from '../../common/database/sql-dates.js';
import { quoteIdentifier } from '../../common/database/sql-identifier.js';

export class StorageReservationSql {
  constructor(readonly dialect: SqlDialect) {}

  private e(name: string): string {
    return quoteIdentifier(this.dialect, name);
  }

  private time(now: Date): unknown {
    return this.dialect === 'sqlite' ? sqlDatetime(now) : now;
  }

  /** Creates the account's row unless it exists (nothing reserved). */
  ensure(accountId: string): SqlStatement {
    const e = (name: string) => this.e(name);
    const insert =
      this.dialect === 'sqlite'
        ? 'INSERT OR IGNORE INTO'
        : 'INSERT IGNORE INTO';
    return {
      sql: `${insert} ${e('storage_reservation')} (${e('accountId')}, ${e('reservedBytes')}) VALUES (?, 0)`,
      params: [accountId],
    };
  }

  /**
   * Reserves `bytes` (affected 1) only while the stored files, the reservations and these
   * bytes together stay within `cap`.
   */
  reserve(
    accountId: string,
    bytes: number,
    cap: number,
    now: Date,
  ): SqlStatement {
    const e = (name: string) => this.e(name);
    const stored = `(SELECT COALESCE(SUM(${e('size')}), 0) FROM ${e('stored_file')} WHERE ${e('accountId')} = ?)`;
    return {
      sql: [
        `UPDATE ${e('storage_reservation')} SET`,
        `${e('reservedBytes')} = ${e('reservedBytes')} + ?, ${e('updatedAt')} = ?`,
        `WHERE ${e('accountId')} = ? AND ${e('reservedBytes')} + ? + ${stored} <= ?`,
      ].join(' '),
      params: [bytes, this.time(now), accountId, bytes, accountId, cap],
    };
  }

  /** Gives back `bytes` (never below zero). */
  release(accountId: string, bytes: number, now: Date): SqlStatement {
    const e = (name: string) => this.e(name);
    const kept =
      this.dialect === 'sqlite'
        ? `MAX(${e('reservedBytes')} - ?, 0)`
        : `GREATEST(${e('reservedBytes')} - ?, 0)`;
    return {
      sql: `UPDATE ${e('storage_reservation')} SET ${e('reservedBytes')} = ${kept}, ${e('updatedAt')} = ? WHERE ${e('accountId')} = ?`,
      params: [bytes, this.time(now), accountId],
    };
  }
}
