// The data of a form's overview page (form-detail.eta): the form, its key and snippets,
// the filtered page of submissions, the activity chart and the notices.
import { roleHas } from '../../auth/permissions.js';
import { Injectable } from '@nestjs/common';
import { ownEntry } from '../../common/own-entry.js';
import { DomainVerificationService } from '../../domain-verification/domain-verification.service.js';
import type { FormResponseDto } from '../../forms/dto/form-response.dto.js';
import type { FieldDefinition, Form } from '../../forms/form.entity.js';
import type { SubmissionDto } from '../../submissions/dto/submission.dto.js';
import { FormsService } from '../../forms/forms.service.js';
import { SubmissionStatsService } from '../../submissions/submission-stats.service.js';
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
import {
  fetchSnippet,
  formspreeSnippet,
  htmlSnippet,
  type SnippetCaptcha,
} from './snippets.js';
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
  if (done === 'bulk-deleted') {
    const deleted = Number(queryText(query.deleted));
    if (!Number.isSafeInteger(deleted) || deleted < 0) return undefined;
    return `Deleted ${plural(deleted, 'submission')}.`;
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

/**
 * The line above a filtered list: what it shows and how many. A date range is counted on
 * the index; a text search is counted only when this one page holds every match (counting
 * them all would read every submission).
 */
function resultsLine(
  values: FilterValues,
  range: string,
  shown: { rows: number; cursor?: string; nextCursor: string | null },
  inRange: number | null,
): string {
  let line = 'Showing submissions';
  if (values.q) line += ` containing “${values.q}”`;
  if (range) line += ` received ${range}`;
  line += ', newest first. ';
  if (inRange !== null) {
    return `${line}${plural(inRange, 'submission')} in all.`;
  }
  const matches = plural(shown.rows, 'match', 'matches');
  if (!shown.cursor && !shown.nextCursor) return `${line}${matches}.`;
  const more = shown.nextCursor ? ', more on older pages' : '';
  return `${line}${matches} on this page${more}.`;
}

function lineCount(text: string): number {
  return Math.min(28, text.split('\n').length + 1);
}

/** form-detail.eta. */
export interface FormPageView {
  form: FormResponseDto;
  /** The form's key, for members who may manage keys; null for the others. */
  apiKey: string | null;
  submitUrl: string;
  htmlSnippet: string;
  htmlRows: number;
  fetchSnippet: string;
  fetchRows: number;
  formspreeUrl: string;
  formspreeSnippet: string;
  formspreeRows: number;
  submissions: SubmissionDto[];
  columns: Array<{ key: string; label: string }>;
  nextCursor: string | null;
  cursor: string | undefined;
  filters: FilterValues;
  filtered: boolean;
  /** Query strings of the page's links, with the filters kept. */
  links: { filters: string; excel: string; older: string; range: string };
  range: string;
  /** What a filtered list shows and how many, or null when it is not filtered. */
  results: string | null;
  /** A filtered list or an older page: the list comes first on the page. */
  listFirst: boolean;
  /** The form has a `file` field: it is posted as multipart/form-data. */
  takesFiles: boolean;
  errors: PageErrors;
  total: number;
  lastAt: Date | string | null;
  chart: DailyChart;
  honeypotHits: number;
  turnedAway: TurnedAway;
  warning: string | null;
  revealKey: boolean;
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
    const counted = filters.active && !filters.errors.any && !filters.input.q;
    const [apiKey, page, stats, days, warning, turnedAway, inRange] =
      await Promise.all([
        // A key would give its holder a developer's reach: only for members who have it.
        roleHas(context.account.role, 'keys.manage')
          ? this.forms.revealApiKey(context.account.id, form.id)
          : null,
        filters.errors.any
          ? { data: [], nextCursor: null }
          : this.submissions.list(entity, {
              ...filters.input,
              limit: SUBMISSIONS_PAGE_SIZE,
              cursor,
            }),
        this.submissions.countByForms([form.id]),
        this.stats.dailyCounts(entity, CHART_DAYS),
        this.verification.warningFor(entity),
        this.spam.turnedAwayOf(form.id),
        counted ? this.stats.countInRange(entity, filters.input) : null,
      ]);
    const range = describeRange(filters.values);
    const submitUrl = `${baseUrl}/api/submit/${encodeURIComponent(form.id)}`;
    const captcha: SnippetCaptcha | null = form.captcha && {
      provider: form.captcha.provider,
      siteKey: form.captcha.siteKey,
      widgetUrl: `${baseUrl}/static/altcha/altcha.js`,
    };
    const html = htmlSnippet(submitUrl, form.fields, captcha);
    const js = fetchSnippet(submitUrl, form.fields, captcha);
    const formspree = formspreeSnippet(baseUrl, form.id);
    const total = stats.get(form.id) ?? { count: 0, lastAt: null };
    return {
      status: filters.errors.any ? 400 : 200,
      data: {
        form,
        apiKey,
        submitUrl,
        htmlSnippet: html,
        htmlRows: lineCount(html),
        fetchSnippet: js,
        fetchRows: lineCount(js),
        formspreeUrl: `${baseUrl}/f/${encodeURIComponent(form.id)}`,
        formspreeSnippet: formspree,
        formspreeRows: lineCount(formspree),
        submissions: page.data,
        columns: submissionColumns(form.fields, page.data),
        nextCursor: page.nextCursor,
        cursor,
        filters: filters.values,
        filtered: filters.active,
        links: {
          filters: filterQuery(filters.values),
          excel: filterQuery(filters.values, { bom: 'true' }),
          older: page.nextCursor
            ? filterQuery(filters.values, { cursor: page.nextCursor })
            : '',
          range: filterQuery({
            from: filters.values.from,
            to: filters.values.to,
          }),
        },
        range,
        results:
          filters.active && page.data.length > 0
            ? resultsLine(
                filters.values,
                range,
                {
                  rows: page.data.length,
                  cursor,
                  nextCursor: page.nextCursor,
                },
                inRange,
              )
            : null,
        listFirst: filters.active || cursor !== undefined || filters.errors.any,
        takesFiles: form.fields.some((field) => field.type === 'file'),
        errors: filters.errors,
        total: total.count,
        lastAt: total.lastAt,
        chart: dailyChart(days),
        honeypotHits: entity.honeypotHits,
        turnedAway,
        warning,
        revealKey: done === 'key-regenerated' || done === 'key-rotated',
        notice: noticeOf(done, query),
      },
    };
  }
}
