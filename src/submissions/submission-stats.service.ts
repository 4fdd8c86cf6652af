import { Injectable } from '@nestjs/common';
import type { Form } from '../forms/form.entity.js';
import {
  parseFilters,
  type SubmissionFilterInput,
} from './submission-filters.js';
import { SubmissionRepository } from './submission.repository.js';

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
  constructor(private readonly submissions: SubmissionRepository) {}

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
    const byDay = await this.submissions.dailyCounts(form.id, first);
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
    return this.submissions.countInRange(form.id, { from, to });
  }
}
