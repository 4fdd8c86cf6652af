// The data of a form's page, its inbox (form-detail.eta): the filtered page of submissions
// first, then the Activity section (chart and counts); the connection details and snippets
// live on the Setup tab (form-setup.builder.ts) and show here only while nothing has arrived.
import { Injectable } from '@nestjs/common';
import { ownEntry } from '../../common/values/own-entry.js';
import { DomainVerificationService } from '../../domain-verification/domain-verification.service.js';
import type { FormResponseDto } from '../../forms/dto/form-response.dto.js';
import type { FieldDefinition, Form } from '../../forms/form.entity.js';
import type { SubmissionDto } from '../../submissions/dto/submission.dto.js';
import { FormsService } from '../../forms/forms.service.js';
import { FormCounterRepository } from '../../submissions/counters/form-counter.repository.js';
import { LabelsService } from '../../submissions/inbox/labels.service.js';
import {
  SubmissionStatsService,
  type MatchCount,
} from '../../submissions/queries/submission-stats.service.js';
import { MembersService } from '../../members/members.service.js';
import { SubmissionsService } from '../../submissions/submissions.service.js';
import type { DashboardContext } from '../dashboard-context.js';
import type { PageErrors } from '../page-errors.js';
import { plural } from '../view-helpers.js';
import {
  describeRange,
  type FilterValues,
  filterQuery,
  queryText,
  readFilters,
} from './dashboard-filters.js';
import { dailyChart, type DailyChart } from './daily-chart.js';
import { FormSetupBuilder, type SetupView } from './form-setup.builder.js';
import {
  inboxListFilter,
  inboxNarrowed,
  inboxQuery,
  readInboxValues,
  STATUS_NAMES,
  type InboxValues,
} from './inbox-filters.js';
import { buildInboxView, type InboxView } from './inbox-view.js';
import { SpamPageBuilder, type TurnedAway } from './spam-page.builder.js';

export const SUBMISSIONS_PAGE_SIZE = 25;

export const NOTICES: Record<string, string> = {
  welcome:
    'Welcome to Formgate! Create a form to get your endpoint and snippet.',
  created:
    'Form created. Paste a snippet into your site to start collecting submissions.',
  deleted: 'The form and all its submissions were deleted.',
  'key-regenerated':
    'A new API key was generated. The old key no longer works: update every client that used it.',
  'key-rotated':
    'A new API key was generated. The old key keeps working for 24 hours: move every client to the new key before then.',
  'submission-deleted': 'The submission was deleted.',
  saved: 'Saved.',
  'joined-by-sso':
    'Welcome: you signed in with single sign-on and joined the account.',
};

/** Days shown in the activity chart, today included. */
export const CHART_DAYS = 30;

/** The notice after a redirect; a bulk delete says how many went. */
function noticeOf(
  done: string,
  query: Record<string, unknown>,
): string | undefined {
  if (done === 'bulk-deleted' || done === 'bulk-updated') {
    const key = done === 'bulk-deleted' ? 'deleted' : 'updated';
    const count = Number(queryText(query[key]));
    if (!Number.isSafeInteger(count) || count < 0) return undefined;
    return `${done === 'bulk-deleted' ? 'Deleted' : 'Updated'} ${plural(count, 'submission')}.`;
  }
  return ownEntry(NOTICES, done);
}

/** Column order: configured fields first, then any other keys seen on this page. */
function submissionColumns(
  fields: FieldDefinition[],
  rows: Array<{ data: Record<string, unknown> }>,
): Array<{ key: string; label: string }> {
  const columns = fields.map((field) => ({
    key: field.id,
    label: field.label?.trim() || field.id,
  }));
  const known = new Set(columns.map((column) => column.key));
  for (const row of rows) {
    for (const key of Object.keys(row.data)) {
      if (!known.has(key)) {
        known.add(key);
        columns.push({ key, label: key });
      }
    }
  }
  return columns;
}

/** The line above a filtered list: a search's count in all, and what the list shows. */
export interface ResultsLine {
  /** "3 submissions match", "10,000+ submissions match"; null without a search. */
  matches: string | null;
  text: string;
}

/** "1 submission matches", "3 submissions match", "10,000+ submissions match". */
export function matchesText(found: MatchCount): string {
  if (found.atLeast) {
    return `${found.count.toLocaleString('en-US')}+ submissions match`;
  }
  return `${plural(found.count, 'submission')} ${found.count === 1 ? 'matches' : 'match'}`;
}

/**
 * A search is counted in all (SubmissionStatsService.countMatches, capped), a date range on
 * the index (`inAll`); a label or "mine" without them only on this page.
 */
function resultsLine(
  values: InboxValues,
  range: string,
  shown: { rows: number; cursor?: string; nextCursor: string | null },
  inAll: number | null,
  matches: MatchCount | null,
): ResultsLine {
  let line = `Showing ${values.status === 'all' ? '' : STATUS_NAMES[values.status].toLowerCase() + ' '}submissions`;
  if (values.mine) line += ' assigned to you';
  if (values.label) line += ` labelled “${values.label}”`;
  if (values.q) line += ` containing “${values.q}”`;
  if (range) line += ` received ${range}`;
  line += ', newest first.';
  if (matches) return { matches: matchesText(matches), text: line };
  if (inAll !== null) {
    return {
      matches: null,
      text: `${line} ${plural(inAll, 'submission')} in all.`,
    };
  }
  const found = plural(shown.rows, 'match', 'matches');
  if (!shown.cursor && !shown.nextCursor) {
    return { matches: null, text: `${line} ${found}.` };
  }
  const more = shown.nextCursor ? ', more on older pages' : '';
  return { matches: null, text: `${line} ${found} on this page${more}.` };
}

/** form-detail.eta. */
export interface FormPageView {
  form: FormResponseDto;
  /** The Setup tab's content, while the form has received nothing yet; null after. */
  setup: SetupView | null;
  submissions: SubmissionDto[];
  columns: Array<{ key: string; label: string }>;
  nextCursor: string | null;
  cursor: string | undefined;
  filters: FilterValues;
  /** Any filter: a tab but All, "mine", a label, a search or dates. */
  filtered: boolean;
  /** The form has received nothing and nothing narrows the list: the setup shows. */
  firstRun: boolean;
  /** A search or dates (the Clear button). */
  searched: boolean;
  inbox: InboxView;
  /** Query strings of the page's links, with the filters kept. */
  links: { filters: string; excel: string; older: string; range: string };
  range: string;
  /** What a filtered list shows and how many, or null when it is not filtered. */
  results: ResultsLine | null;
  errors: PageErrors;
  total: number;
  lastAt: Date | string | null;
  chart: DailyChart;
  honeypotHits: number;
  turnedAway: TurnedAway;
  warning: string | null;
  notice: string | undefined;
}

export interface FormPage {
  status: number;
  data: FormPageView;
}

@Injectable()
export class FormPageBuilder {
  constructor(
    private readonly forms: FormsService,
    private readonly submissions: SubmissionsService,
    private readonly stats: SubmissionStatsService,
    private readonly verification: DomainVerificationService,
    private readonly spam: SpamPageBuilder,
    private readonly setup: FormSetupBuilder,
    private readonly counters: FormCounterRepository,
    private readonly labels: LabelsService,
    private readonly members: MembersService,
  ) {}

  /** 400 when the filters in the query are not valid (the page then says why). */
  async build(
    context: DashboardContext,
    baseUrl: string,
    entity: Form,
    query: Record<string, unknown>,
  ): Promise<FormPage> {
    const form = this.forms.toResponse(entity);
    const filters = readFilters(query);
    const cursor = queryText(query.cursor) || undefined;
    const done = queryText(query.done);
    const values = readInboxValues(query, filters.values, filters.errors);
    const narrowed = inboxNarrowed(values);
    const filtered = filters.active || narrowed || values.status !== 'all';
    const listFilter = {
      ...filters.input,
      ...inboxListFilter(values, context.user.id),
    };
    // A date range (on a tab or All) is counted on the index.
    const counted =
      filters.active && !filters.errors.any && !filters.input.q && !narrowed;
    const [page, counts, days, warning, turnedAway, inRange, members, labels] =
      await Promise.all([
        filters.errors.any
          ? { data: [], nextCursor: null }
          : this.submissions.list(entity, {
              ...listFilter,
              limit: SUBMISSIONS_PAGE_SIZE,
              cursor,
            }),
        this.counters.countsOf(form.id),
        this.counters.dailyCounts(form.id, CHART_DAYS),
        this.verification.warningFor(entity),
        this.spam.turnedAwayOf(form.id),
        counted
          ? this.stats.countInRange(entity, {
              ...filters.input,
              status: listFilter.status,
            })
          : null,
        this.members.list(context.account.id),
        this.labels.list(context.account.id),
      ]);
    const range = describeRange(filters.values);
    const total = { count: counts.total, lastAt: counts.lastAt };
    // A form that has received nothing shows its setup, unless a tab was asked for.
    const firstRun =
      total.count === 0 &&
      !filters.active &&
      !narrowed &&
      !cursor &&
      !queryText(query.status);
    const matches =
      filters.input.q && page.data.length > 0
        ? await this.matchesOf(entity, listFilter, page, cursor)
        : null;
    const inbox = buildInboxView({
      values,
      counts,
      role: context.account.role,
      members: members.map((m) => ({ userId: m.userId, email: m.email })),
      labels: labels.map((l) => ({ name: l.name, color: l.color })),
      cursor,
    });
    return {
      status: filters.errors.any ? 400 : 200,
      data: {
        form,
        setup: firstRun
          ? await this.setup.build(context, baseUrl, form, done)
          : null,
        firstRun,
        submissions: page.data,
        columns: submissionColumns(form.fields, page.data),
        nextCursor: page.nextCursor,
        cursor,
        filters: filters.values,
        filtered,
        searched: filters.active,
        inbox,
        links: {
          filters: inboxQuery(values),
          excel: inboxQuery(values, { bom: 'true' }),
          older: page.nextCursor
            ? inboxQuery(values, { cursor: page.nextCursor })
            : '',
          range: filterQuery({
            from: filters.values.from,
            to: filters.values.to,
          }),
        },
        range,
        // A tab alone says its count on the tab.
        results:
          (filters.active || narrowed) && page.data.length > 0
            ? resultsLine(
                values,
                range,
                {
                  rows: page.data.length,
                  cursor,
                  nextCursor: page.nextCursor,
                },
                inRange,
                matches,
              )
            : null,
        errors: filters.errors,
        total: total.count,
        lastAt: total.lastAt,
        chart: dailyChart(days),
        honeypotHits: entity.honeypotHits,
        turnedAway,
        warning,
        notice: noticeOf(done, query),
      },
    };
  }

  /**
   * A search's matches in all: the page itself when it holds every one, else counted
   * (capped), and never fewer than the page shows.
   */
  private async matchesOf(
    form: Form,
    filter: Parameters<SubmissionStatsService['countMatches']>[1],
    page: { data: unknown[]; nextCursor: string | null },
    cursor: string | undefined,
  ): Promise<MatchCount> {
    if (!cursor && !page.nextCursor) {
      return { count: page.data.length, atLeast: false };
    }
    const found = await this.stats.countMatches(form, filter);
    return found.count < page.data.length
      ? { count: page.data.length, atLeast: true }
      : found;
  }
}
