// Every statement on form_counter and form_daily_count, a form's counts (their dialect SQL
// in form-counter-sql.ts): the reads of the status tabs, the forms list and the 30-day
// chart, the changes each counted write applies in its transaction, and a form's recount.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { sqlDatetime, toDate } from '../../common/database/sql-dates.js';
import type { SubmissionStatus } from '../submission.entity.js';
import { FormCounterSql } from './form-counter-sql.js';
import {
  emptyCounts,
  utcDay,
  writeCounterChanges,
  type CounterChanges,
  type DailyCount,
  type FormCounts,
} from './form-counters.js';

const DAY_MS = 86_400_000;
const FORMS_PER_READ = 500;

@Injectable()
export class FormCounterRepository {
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
