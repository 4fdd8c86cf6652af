import { Injectable } from '@nestjs/common';
import type { Form } from '../../forms/form.entity.js';
import { FormCounterRepository } from '../counters/form-counter.repository.js';
import type { DailyCount, FormCounts } from '../counters/form-counters.js';
import {
  parseFilters,
  type SubmissionFilterInput,
} from './submission-filters.js';
import { SubmissionRepository } from '../submission.repository.js';
import { LabelsService } from '../inbox/labels.service.js';
import {
  SearchCountRepository,
  type MatchCount,
} from '../search/search-count.repository.js';

export { utcDay, type DailyCount } from '../counters/form-counters.js';
export type { MatchCount } from '../search/search-count.repository.js';

/**
 * Counts over a form's submissions, for the dashboard. The form's totals, its status
 * tabs and its 30-day chart are read from its counters (FormCounterRepository), whatever the
 * form's size; only a count of a date range the owner asked for reads rows, and a
 * search's count reads the full-text index (with a cap).
 */
@Injectable()
export class SubmissionStatsService {
  constructor(
    private readonly submissions: SubmissionRepository,
    private readonly counters: FormCounterRepository,
    private readonly labels: LabelsService,
    private readonly matches: SearchCountRepository,
  ) {}

  /**
   * Submissions per UTC day over the last `days` days, today included, oldest first,
   * days without any included as 0: one read of the form's per-day counts.
   */
  dailyCounts(
    form: Pick<Form, 'id'>,
    days = 30,
    now = new Date(),
  ): Promise<DailyCount[]> {
    return this.counters.dailyCounts(form.id, days, now);
  }

  /** The form's counts: total, spam, and each status (the tabs, the stat cards). */
  countsOf(form: Pick<Form, 'id'>): Promise<FormCounts> {
    return this.counters.countsOf(form.id);
  }

  /** Each form's `new` count (the forms list). */
  async newCounts(formIds: readonly string[]): Promise<Map<string, number>> {
    const counts = await this.counters.countsByForms(formIds);
    return new Map([...counts].map(([id, count]) => [id, count.new]));
  }

  /**
   * How many of the form's submissions (of one status, when given) lie in [from, to)
   * (400 for a bad range).
   */
  async countInRange(
    form: Pick<Form, 'id'>,
    range: Pick<SubmissionFilterInput, 'from' | 'to' | 'status'> = {},
  ): Promise<number> {
    const { from, to, status } = parseFilters({
      from: range.from,
      to: range.to,
      status: range.status,
    });
    return this.submissions.countInRange(form.id, { from, to, status });
  }

  /**
   * How many of the form's submissions a search (`q`, with the list's other filters) finds
   * in all, capped (docs/inbox.md); 400 for a bad filter.
   */
  async countMatches(
    form: Pick<Form, 'id' | 'accountId'>,
    input: SubmissionFilterInput,
  ): Promise<MatchCount> {
    const filters = parseFilters(input);
    if (input.label !== undefined && input.label !== '') {
      filters.labelId =
        (await this.labels.findId(form.accountId, input.label)) ?? '-';
    }
    return this.matches.count(form.id, filters);
  }
}
