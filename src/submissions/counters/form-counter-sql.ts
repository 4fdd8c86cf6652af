// The SQL of the form counters (form_counter, form_daily_count) for both dialects, built
// without a connection so that form-counter-sql.spec.ts can snapshot it. Every write is an
// upsert that adds a delta: the writes that change a form's rows call it in their own
// transaction (docs/inbox.md).
import { quoteIdentifier } from '../../common/database/sql-identifier.js';
import type {
  SqlDialect,
  SqlStatement,
} from '../../common/database/sql-statement.js';
import type { SubmissionStatus } from '../submission.entity.js';

/** What a write changes of a form's counts (negative: fewer). */
export interface CounterDelta {
  total: number;
  spam: number;
  new: number;
  open: number;
  closed: number;
  /** The newest arrival among rows added, if any. */
  lastAt?: string | null;
}

export const STATUS_COLUMN: Record<
  SubmissionStatus,
  'newCount' | 'openCount' | 'closedCount'
> = {
  new: 'newCount',
  open: 'openCount',
  closed: 'closedCount',
};

export function zeroDelta(): CounterDelta {
  return { total: 0, spam: 0, new: 0, open: 0, closed: 0 };
}

export function isZero(delta: CounterDelta): boolean {
  return (
    delta.total === 0 &&
    delta.spam === 0 &&
    delta.new === 0 &&
    delta.open === 0 &&
    delta.closed === 0 &&
    !delta.lastAt
  );
}

export const COUNTER_COLUMNS = [
  'formId',
  'total',
  'spam',
  'newCount',
  'openCount',
  'closedCount',
  'lastAt',
] as const;

export class FormCounterSql {
  constructor(readonly dialect: SqlDialect) {}

  e(name: string): string {
    return quoteIdentifier(this.dialect, name);
  }

  /**
   * Adds deltas to the counters of `rows` forms (one row per form) in one statement; a
   * form without counters gets them.
   */
  adjust(rows: number): string {
    return this.adjustWith(
      Array.from(
        { length: rows },
        () => `(${COUNTER_COLUMNS.map(() => '?').join(', ')})`,
      ).join(', '),
    );
  }

  /** `adjust` with the VALUES list given (mysql2's `VALUES ?` for nested arrays). */
  adjustWith(values: string): string {
    const e = (name: string) => this.e(name);
    const insert = `INSERT INTO ${e('form_counter')} (${COUNTER_COLUMNS.map(e).join(', ')}) VALUES ${values} `;
    const adds = ['total', 'spam', 'newCount', 'openCount', 'closedCount'];
    if (this.dialect === 'sqlite') {
      const set = adds.map((c) => `${e(c)} = ${e(c)} + excluded.${e(c)}`);
      set.push(
        `${e('lastAt')} = CASE WHEN excluded.${e('lastAt')} IS NULL OR ${e('lastAt')} >= excluded.${e('lastAt')} THEN ${e('lastAt')} ELSE excluded.${e('lastAt')} END`,
      );
      return `${insert}ON CONFLICT (${e('formId')}) DO UPDATE SET ${set.join(', ')}`;
    }
    const set = adds.map((c) => `${e(c)} = ${e(c)} + VALUES(${e(c)})`);
    set.push(
      `${e('lastAt')} = CASE WHEN VALUES(${e('lastAt')}) IS NULL OR ${e('lastAt')} >= VALUES(${e('lastAt')}) THEN ${e('lastAt')} ELSE VALUES(${e('lastAt')}) END`,
    );
    return `${insert}ON DUPLICATE KEY UPDATE ${set.join(', ')}`;
  }

  adjustParams(deltas: ReadonlyArray<[string, CounterDelta]>): unknown[] {
    return deltas.flatMap((entry) => this.adjustRow(entry));
  }

  adjustRow([formId, d]: [string, CounterDelta]): unknown[] {
    return [formId, d.total, d.spam, d.new, d.open, d.closed, d.lastAt ?? null];
  }

  /** Adds to `rows` (formId, day) counts in one statement. */
  adjustDays(rows: number): string {
    return this.adjustDaysWith(
      Array.from({ length: rows }, () => '(?, ?, ?)').join(', '),
    );
  }

  adjustDaysWith(values: string): string {
    const e = (name: string) => this.e(name);
    const insert = `INSERT INTO ${e('form_daily_count')} (${e('formId')}, ${e('day')}, ${e('count')}) VALUES ${values} `;
    return this.dialect === 'sqlite'
      ? `${insert}ON CONFLICT (${e('formId')}, ${e('day')}) DO UPDATE SET ${e('count')} = ${e('count')} + excluded.${e('count')}`
      : `${insert}ON DUPLICATE KEY UPDATE ${e('count')} = ${e('count')} + VALUES(${e('count')})`;
  }

  /** The counters of the listed forms. */
  countersOf(formIds: readonly string[]): SqlStatement {
    const e = (name: string) => this.e(name);
    return {
      sql:
        `SELECT ${COUNTER_COLUMNS.map(e).join(', ')} FROM ${e('form_counter')} ` +
        `WHERE ${e('formId')} IN (${formIds.map(() => '?').join(', ')})`,
      params: [...formIds],
    };
  }

  /** A form's per-day counts from `firstDay` (YYYY-MM-DD) on. */
  daysOf(formId: string, firstDay: string): SqlStatement {
    const e = (name: string) => this.e(name);
    return {
      sql:
        `SELECT ${e('day')}, ${e('count')} FROM ${e('form_daily_count')} ` +
        `WHERE ${e('formId')} = ? AND ${e('day')} >= ? ORDER BY ${e('day')}`,
      params: [formId, firstDay],
    };
  }

  /** The sum of a form's per-day counts in [firstDay, endDay). */
  sumOfDays(formId: string, firstDay: string, endDay?: string): SqlStatement {
    const e = (name: string) => this.e(name);
    const params: unknown[] = [formId, firstDay];
    let sql =
      `SELECT COALESCE(SUM(${e('count')}), 0) AS ${e('count')} FROM ${e('form_daily_count')} ` +
      `WHERE ${e('formId')} = ? AND ${e('day')} >= ?`;
    if (endDay !== undefined) {
      sql += ` AND ${e('day')} < ?`;
      params.push(endDay);
    }
    return { sql, params };
  }

  /**
   * The counts of a form's rows as they are (counters:rebuild): per folder and status, and
   * the clean ones per day. Each is one grouped pass over the keyset index.
   */
  fullCount(formId: string): SqlStatement {
    const e = (name: string) => this.e(name);
    return {
      sql:
        `SELECT ${e('spam')}, ${e('status')}, COUNT(*) AS ${e('count')}, MAX(${e('createdAt')}) AS ${e('lastAt')} ` +
        `FROM ${e('submission')} WHERE ${e('formId')} = ? GROUP BY ${e('spam')}, ${e('status')}`,
      params: [formId],
    };
  }

  fullDays(formId: string): SqlStatement {
    const e = (name: string) => this.e(name);
    const day =
      this.dialect === 'sqlite'
        ? `substr(${e('createdAt')}, 1, 10)`
        : `DATE_FORMAT(${e('createdAt')}, '%Y-%m-%d')`;
    return {
      sql:
        `SELECT ${day} AS ${e('day')}, COUNT(*) AS ${e('count')} FROM ${e('submission')} ` +
        `WHERE ${e('formId')} = ? AND ${e('spam')} = 0 GROUP BY ${day}`,
      params: [formId],
    };
  }

  replaceCounter(): string {
    const e = (name: string) => this.e(name);
    return `${this.dialect === 'sqlite' ? 'INSERT OR REPLACE' : 'REPLACE'} INTO ${e('form_counter')} (${COUNTER_COLUMNS.map(e).join(', ')}) VALUES (${COUNTER_COLUMNS.map(() => '?').join(', ')})`;
  }

  deleteDays(formId: string): SqlStatement {
    const e = (name: string) => this.e(name);
    return {
      sql: `DELETE FROM ${e('form_daily_count')} WHERE ${e('formId')} = ?`,
      params: [formId],
    };
  }
}
