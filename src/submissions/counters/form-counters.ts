// A form's counts read from its counters, and the one way writes change them: each write
// that adds, moves or removes submissions (the commit queue, a status change, a spam move,
// a deletion) hands its deltas to `apply` inside its own transaction (docs/inbox.md).
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { sqlDatetime, toDate } from '../../common/database/sql-dates.js';
import type { SubmissionStatus } from '../submission.entity.js';
import {
  FormCounterSql,
  isZero,
  zeroDelta,
  type CounterDelta,
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

const DAY_MS = 86_400_000;
const FORMS_PER_READ = 500;

/** "YYYY-MM-DD HH:MM:SS[.mmm]" without a zone: how sqlDatetime writes a UTC time. */
const SQL_DATETIME_UTC = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)?$/;

export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

function emptyCounts(): FormCounts {
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

@Injectable()
export class FormCounters {
  readonly sql: FormCounterSql;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.sql = new FormCounterSql(
      dataSource.options.type === 'better-sqlite3' ? 'sqlite' : 'mysql',
    );
  }

  /** Writes the changes: at most one statement for the forms and one for their days. */
  apply(manager: EntityManager, changes: CounterChanges): Promise<void> {
    return writeCounterChanges(
      (sql, params) => manager.query(sql, params),
      this.sql,
      changes,
    );
  }

  /** One form's counts (the status tabs, the stat cards). */
  async countsOf(formId: string): Promise<FormCounts> {
    return (await this.countsByForms([formId])).get(formId) ?? emptyCounts();
  }

  /** The counts of each listed form (the forms list: each form's `new`). */
  async countsByForms(
    formIds: readonly string[],
  ): Promise<Map<string, FormCounts>> {
    const counts = new Map<string, FormCounts>();
    for (const id of formIds) counts.set(id, emptyCounts());
    const unique = [...counts.keys()];
    for (let i = 0; i < unique.length; i += FORMS_PER_READ) {
      const { sql, params } = this.sql.countersOf(
        unique.slice(i, i + FORMS_PER_READ),
      );
      const rows = await this.dataSource.query<
        Array<Record<string, number | string | Date | null>>
      >(sql, params);
      for (const row of rows) {
        counts.set(String(row.formId), {
          total: Number(row.total),
          spam: Number(row.spam),
          new: Number(row.newCount),
          open: Number(row.openCount),
          closed: Number(row.closedCount),
          lastAt:
            row.lastAt === null ? null : toDate(row.lastAt as Date | string),
        });
      }
    }
    return counts;
  }

  /**
   * Clean submissions per UTC day over the last `days` days, today included, oldest
   * first, days without any as 0 (the 30-day chart).
   */
  async dailyCounts(
    formId: string,
    days = 30,
    now = new Date(),
  ): Promise<DailyCount[]> {
    const today = Date.UTC(
      now.getUTCFullYear(),
      now.getUTCMonth(),
      now.getUTCDate(),
    );
    const first = new Date(today - (days - 1) * DAY_MS);
    const { sql, params } = this.sql.daysOf(formId, utcDay(first));
    const rows = await this.dataSource.query<
      Array<{ day: string; count: number | string }>
    >(sql, params);
    const byDay = new Map(rows.map((row) => [row.day, Number(row.count)]));
    return Array.from({ length: days }, (_, i) => {
      const day = utcDay(new Date(first.getTime() + i * DAY_MS));
      return { day, count: byDay.get(day) ?? 0 };
    });
  }

  /**
   * Recounts one form from its rows and replaces its counters (counters:rebuild, a database
   * older than them). Two grouped reads of the form's rows, then the writes in one
   * transaction.
   */
  async rebuild(formId: string): Promise<FormCounts> {
    const run = <T>(statement: { sql: string; params: unknown[] }) =>
      this.dataSource.query<T>(statement.sql, statement.params);
    const groups = await run<
      Array<{
        spam: number | boolean;
        status: SubmissionStatus;
        count: number | string;
        lastAt: Date | string | null;
      }>
    >(this.sql.fullCount(formId));
    const counts = emptyCounts();
    for (const group of groups) {
      const count = Number(group.count);
      if (Number(group.spam)) {
        counts.spam += count;
        continue;
      }
      counts.total += count;
      counts[group.status] += count;
      const at = group.lastAt === null ? null : toDate(group.lastAt);
      if (at && (!counts.lastAt || counts.lastAt < at)) counts.lastAt = at;
    }
    const days = await run<Array<{ day: string; count: number | string }>>(
      this.sql.fullDays(formId),
    );
    await this.dataSource.transaction(async (manager) => {
      const remove = this.sql.deleteDays(formId);
      await manager.query(remove.sql, remove.params);
      await manager.query(this.sql.replaceCounter(), [
        formId,
        counts.total,
        counts.spam,
        counts.new,
        counts.open,
        counts.closed,
        counts.lastAt ? sqlDatetime(counts.lastAt) : null,
      ]);
      for (let i = 0; i < days.length; i += 500) {
        const slice = days.slice(i, i + 500);
        await manager.query(
          this.sql.adjustDays(slice.length),
          slice.flatMap((d) => [formId, d.day, Number(d.count)]),
        );
      }
    });
    return counts;
  }
}
