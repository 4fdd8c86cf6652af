// The SQL of the mail caps (mail_quota), for both dialects, built without a connection so
// that mail-quota-sql.spec.ts can snapshot it. A reservation is one UPDATE whose WHERE
// holds the cap: the database applies concurrent ones one after another, each seeing the
// count the previous one left, so no two requests can take the last mail of a day.
import type {
  SqlDialect,
  SqlStatement,
} from '../../common/database/sql-statement.js';
import { sqlDatetime } from '../../common/database/sql-dates.js';
import { quoteIdentifier } from '../../common/database/sql-identifier.js';

/** A cap on one subject's mail. */
export interface QuotaRule {
  /** `account:<id>` or `address:<address>`. */
  subject: string;
  /** Mails a UTC day. */
  perDay: number;
  /** After this many unanswered mails in a row, none until `quietMs` after the last one. */
  maxUnanswered: number;
  quietMs: number;
}

/** The UTC day of a moment, as stored: YYYY-MM-DD. */
export function quotaDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

export class MailQuotaSql {
  constructor(readonly dialect: SqlDialect) {}

  private e(name: string): string {
    return quoteIdentifier(this.dialect, name);
  }

  /** Creates the subject's row unless it exists (its counters start at zero). */
  ensure(subject: string): SqlStatement {
    const e = (name: string) => this.e(name);
    const insert =
      this.dialect === 'sqlite'
        ? 'INSERT OR IGNORE INTO'
        : 'INSERT IGNORE INTO';
    return {
      sql: `${insert} ${e('mail_quota')} (${e('subject')}, ${e('day')}, ${e('usedOnDay')}, ${e('unanswered')}) VALUES (?, '', 0, 0)`,
      params: [subject],
    };
  }

  /**
   * Takes one mail of the rule's caps: changes the row (affected 1) only while the day's
   * count is under `perDay` and the address is not in its quiet month. The assignments
   * read only columns not assigned before them, because MySQL evaluates them left to
   * right with the new values and SQLite with the old ones.
   */
  reserve(rule: QuotaRule, now: Date): SqlStatement {
    const e = (name: string) => this.e(name);
    const today = quotaDay(now);
    const quietSince = sqlDatetime(new Date(now.getTime() - rule.quietMs));
    return {
      sql: [
        `UPDATE ${e('mail_quota')} SET`,
        `${e('usedOnDay')} = CASE WHEN ${e('day')} = ? THEN ${e('usedOnDay')} + 1 ELSE 1 END,`,
        `${e('unanswered')} = CASE WHEN ${e('lastSentAt')} IS NULL OR ${e('lastSentAt')} <= ? THEN 1 ELSE ${e('unanswered')} + 1 END,`,
        `${e('day')} = ?, ${e('lastSentAt')} = ?`,
        `WHERE ${e('subject')} = ?`,
        `AND (${e('day')} <> ? OR ${e('usedOnDay')} < ?)`,
        `AND (${e('unanswered')} < ? OR ${e('lastSentAt')} IS NULL OR ${e('lastSentAt')} <= ?)`,
      ].join(' '),
      params: [
        today,
        quietSince,
        today,
        sqlDatetime(now),
        rule.subject,
        today,
        rule.perDay,
        rule.maxUnanswered,
        quietSince,
      ],
    };
  }

  /** Gives back a mail reserved today that was not sent after all. */
  release(subject: string, now: Date): SqlStatement {
    const e = (name: string) => this.e(name);
    return {
      sql: `UPDATE ${e('mail_quota')} SET ${e('usedOnDay')} = ${e('usedOnDay')} - 1, ${e('unanswered')} = CASE WHEN ${e('unanswered')} > 0 THEN ${e('unanswered')} - 1 ELSE 0 END WHERE ${e('subject')} = ? AND ${e('day')} = ? AND ${e('usedOnDay')} > 0`,
      params: [subject, quotaDay(now)],
    };
  }

  /**
   * Up to `limit` subjects whose last mail went out at or before `before`: a row that old
   * caps nothing (its day has passed and its quiet month too), so it may go.
   */
  outlived(before: Date, limit: number): SqlStatement {
    const e = (name: string) => this.e(name);
    return {
      sql: `SELECT ${e('subject')} FROM ${e('mail_quota')} WHERE ${e('lastSentAt')} <= ? LIMIT ${Math.trunc(limit)}`,
      params: [sqlDatetime(before)],
    };
  }

  /** Deletes those of `subjects` still untouched since `before` (none mailed meanwhile). */
  deleteOutlived(subjects: readonly string[], before: Date): SqlStatement {
    const e = (name: string) => this.e(name);
    return {
      sql: `DELETE FROM ${e('mail_quota')} WHERE ${e('subject')} IN (${subjects.map(() => '?').join(', ')}) AND ${e('lastSentAt')} <= ?`,
      params: [...subjects, sqlDatetime(before)],
    };
  }

  /** The address confirmed: its unanswered mails no longer count. */
  answered(subject: string): SqlStatement {
    const e = (name: string) => this.e(name);
    return {
      sql: `UPDATE ${e('mail_quota')} SET ${e('unanswered')} = 0 WHERE ${e('subject')} = ?`,
      params: [subject],
    };
  }
}
