import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { Form } from '../forms/form.entity.js';
import { Submission } from './submission.entity.js';
import {
  parseFilters,
  type SubmissionFilterInput,
} from './submission-filters.js';
import { sqlDatetime } from './submission-rows.js';

export interface DailyCount {
  /** UTC calendar day, YYYY-MM-DD. */
  day: string;
  count: number;
}

const DAY_MS = 86_400_000;

/** The UTC day of an instant, YYYY-MM-DD. */
export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** Counts over a form's submissions, for the dashboard: per day, and in a date range. */
@Injectable()
export class SubmissionStatsService {
  constructor(
    @InjectRepository(Submission)
    private readonly submissions: Repository<Submission>,
  ) {}

  /**
   * Submissions per UTC day over the last `days` days, today included, oldest first,
   * days without any included as 0. One grouped read over the index range
   * (formId, createdAt) of those days.
   */
  async dailyCounts(
    form: Pick<Form, 'id'>,
    days = 30,
    now = new Date(),
  ): Promise<DailyCount[]> {
    const today = Date.UTC(
      now.getUTCFullYear(),
      now.getUTCMonth(),
      now.getUTCDate(),
    );
    const first = new Date(today - (days - 1) * DAY_MS);
    const rows = await this.submissions
      .createQueryBuilder('s')
      .select(this.dayExpression(), 'day')
      .addSelect('COUNT(*)', 'count')
      .where('s.formId = :formId', { formId: form.id })
      .andWhere('s.createdAt >= :first', { first: sqlDatetime(first) })
      .groupBy('day')
      .getRawMany<{ day: string; count: number | string }>();
    const byDay = new Map(rows.map((row) => [row.day, Number(row.count)]));
    return Array.from({ length: days }, (_, i) => {
      const day = utcDay(new Date(first.getTime() + i * DAY_MS));
      return { day, count: byDay.get(day) ?? 0 };
    });
  }

  /** How many of the form's submissions lie in [from, to) (400 for a bad range). */
  async countInRange(
    form: Pick<Form, 'id'>,
    range: Pick<SubmissionFilterInput, 'from' | 'to'> = {},
  ): Promise<number> {
    const { from, to } = parseFilters({ from: range.from, to: range.to });
    const query = this.submissions
      .createQueryBuilder('s')
      .where('s.formId = :formId', { formId: form.id });
    if (from)
      query.andWhere('s.createdAt >= :from', { from: sqlDatetime(from) });
    if (to) query.andWhere('s.createdAt < :to', { to: sqlDatetime(to) });
    return query.getCount();
  }

  /** createdAt's UTC day as text: stored as text on SQLite, as DATETIME on MySQL/MariaDB. */
  private dayExpression(): string {
    return this.submissions.manager.connection.options.type === 'better-sqlite3'
      ? 'substr(s.createdAt, 1, 10)'
      : "DATE_FORMAT(s.createdAt, '%Y-%m-%d')";
  }
}
