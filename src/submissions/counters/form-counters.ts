// A form's counts, and the one way writes change them: each write that adds, moves or
// removes submissions (the commit queue, a status change, a spam move, a deletion) collects
// its deltas as CounterChanges and writes them inside its own transaction
// (FormCounterRepository.apply, or writeCounterChanges for the writers that run their own
// statements) (docs/inbox.md).
import { sqlDatetime, toDate } from '../../common/database/sql-dates.js';
import type { SubmissionStatus } from '../submission.entity.js';
import {
  isZero,
  zeroDelta,
  type CounterDelta,
  type FormCounterSql,
} from './form-counter-sql.js';

export interface FormCounts {
  /** Clean submissions (not in the spam folder). */
  total: number;
  spam: number;
  new: number;
  open: number;
  closed: number;
  /** When the latest submission arrived; null: none yet. */
  lastAt: Date | null;
}

export interface DailyCount {
  /** UTC calendar day, YYYY-MM-DD. */
  day: string;
  count: number;
}

/** What a counted write needs to know of each row it changes. */
export interface CountedRow {
  formId: string;
  spam: boolean | number;
  status: SubmissionStatus;
  createdAt: Date | string;
}

/** "YYYY-MM-DD HH:MM:SS[.mmm]" without a zone: how sqlDatetime writes a UTC time. */
const SQL_DATETIME_UTC = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)?$/;

export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export function emptyCounts(): FormCounts {
  return { total: 0, spam: 0, new: 0, open: 0, closed: 0, lastAt: null };
}

/** The deltas of a set of writes, per form and per (form, day). */
export class CounterChanges {
  readonly forms = new Map<string, CounterDelta>();
  readonly days = new Map<
    string,
    { formId: string; day: string; count: number }
  >();

  private form(formId: string): CounterDelta {
    let delta = this.forms.get(formId);
    if (!delta) {
      delta = zeroDelta();
      this.forms.set(formId, delta);
    }
    return delta;
  }

  private day(formId: string, createdAt: Date | string, count: number): void {
    // The submit path's rows carry createdAt as SQL text, already in UTC: its day is its start.
    const day =
      typeof createdAt === 'string' && SQL_DATETIME_UTC.test(createdAt)
        ? createdAt.slice(0, 10)
        : utcDay(toDate(createdAt));
    const key = `${formId} ${day}`;
    const entry = this.days.get(key) ?? { formId, day, count: 0 };
    entry.count += count;
    this.days.set(key, entry);
  }

  /** `sign` 1: the row is added (in its folder and status); -1: removed. */
  row(row: CountedRow, sign: 1 | -1): this {
    const delta = this.form(row.formId);
    if (Number(row.spam)) {
      delta.spam += sign;
      return this;
    }
    delta.total += sign;
    delta[row.status] += sign;
    this.day(row.formId, row.createdAt, sign);
    if (sign === 1) {
      const at = sqlDatetime(toDate(row.createdAt));
      if (!delta.lastAt || delta.lastAt < at) delta.lastAt = at;
    }
    return this;
  }

  /** A clean row's status changes. */
  status(formId: string, from: SubmissionStatus, to: SubmissionStatus): this {
    if (from === to) return this;
    const delta = this.form(formId);
    delta[from] -= 1;
    delta[to] += 1;
    return this;
  }

  /** The same changes with forms and days in key order (a fixed lock order). */
  sorted(): CounterChanges {
    const copy = new CounterChanges();
    for (const key of [...this.forms.keys()].sort()) {
      copy.forms.set(key, this.forms.get(key)!);
    }
    for (const key of [...this.days.keys()].sort()) {
      copy.days.set(key, this.days.get(key)!);
    }
    return copy;
  }

  /** The forms' deltas that change something, as statement rows. */
  formRows(): Array<[string, CounterDelta]> {
    return [...this.forms].filter(([, d]) => !isZero(d));
  }

  dayRows(): Array<[string, string, number]> {
    return [...this.days.values()]
      .filter((d) => d.count !== 0)
      .map((d) => [d.formId, d.day, d.count]);
  }

  get empty(): boolean {
    return (
      [...this.forms.values()].every(isZero) &&
      [...this.days.values()].every((d) => d.count === 0)
    );
  }
}

/**
 * Writes counter changes through `run` (a transaction's query): at most one statement
 * for the forms and one for their days. For writers outside Nest's injection (the commit
 * queue, deletions).
 */
export async function writeCounterChanges(
  run: (sql: string, params: unknown[]) => Promise<unknown>,
  sql: FormCounterSql,
  changes: CounterChanges,
): Promise<void> {
  const forms = changes.formRows();
  if (forms.length > 0) {
    await run(sql.adjust(forms.length), sql.adjustParams(forms));
  }
  const days = changes.dayRows();
  if (days.length > 0) {
    await run(sql.adjustDays(days.length), days.flat());
  }
}
