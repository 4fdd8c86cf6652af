import {
  BadRequestException,
  Body,
  ConflictException,
  Controller,
  Get,
  Param,
  Post,
  Query,
  Req,
  Res,
  UseFilters,
  UseGuards,
} from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { NoDeadline, WithDeadline } from '../../common/deadline.interceptor.js';
import { ownEntry } from '../../common/own-entry.js';
import { DomainVerificationService } from '../../domain-verification/domain-verification.service.js';
import { FIELD_TYPES, type FieldDefinition } from '../../forms/form.entity.js';
import { validateFormInput } from '../../forms/form-input.validation.js';
import { FormsService } from '../../forms/forms.service.js';
import { SubmissionStatsService } from '../../submissions/submission-stats.service.js';
import { SubmissionsService } from '../../submissions/submissions.service.js';
import { textOf } from '../form-body.js';
import {
  baseUrlOf,
  Dashboard,
  ownerPrincipal,
  type DashboardContext,
} from '../dashboard-context.js';
import { DashboardExceptionFilter } from '../dashboard-exception.filter.js';
import {
  describeRange,
  filterQuery,
  queryText,
  readFilters,
} from './dashboard-filters.js';
import { dailyChart } from './daily-chart.js';
import { SignedInGuard } from '../session/dashboard.guards.js';
import {
  applyOp,
  blankRow,
  fieldsFromRows,
  opFromBody,
  rowsFromBody,
  type EditorRow,
} from './form-editor.js';
import { formInputErrors, PageErrors } from '../page-errors.js';
import { fetchSnippet, htmlSnippet } from './snippets.js';
import { plural } from '../view-helpers.js';

export const SUBMISSIONS_PAGE_SIZE = 25;

const NOTICES: Record<string, string> = {
  welcome:
    'Welcome to Formgate! Create a form to get your endpoint and snippet.',
  created:
    'Form created. Paste a snippet into your site to start collecting submissions.',
  deleted: 'The form and all its submissions were deleted.',
  'key-regenerated':
    'A new API key was generated. The old key no longer works: update every client that used it.',
  'submission-deleted': 'The submission was deleted.',
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

function lineCount(text: string): number {
  return Math.min(28, text.split('\n').length + 1);
}

/** Forms list, new form, a form's overview page and its CSV export. */
@ApiExcludeController()
@WithDeadline()
@Controller('dashboard/forms')
@UseGuards(SignedInGuard)
@UseFilters(DashboardExceptionFilter)
export class DashboardFormsController {
  constructor(
    private readonly forms: FormsService,
    private readonly submissions: SubmissionsService,
    private readonly stats: SubmissionStatsService,
    private readonly verification: DomainVerificationService,
  ) {}

  @Get()
  async list(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @Query('done') done?: string,
  ) {
    const forms = await this.forms.list(ownerPrincipal(context));
    const stats = await this.submissions.countByForms(forms.map((f) => f.id));
    return reply.view('forms-list', {
      forms,
      stats: Object.fromEntries(stats),
      notice: ownEntry(NOTICES, done),
    });
  }

  @Get('new')
  newForm(@Res() reply: FastifyReply) {
    return this.editorPage(reply, 200, { name: '', rows: [blankRow()] });
  }

  @Post('new')
  async create(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @Body() body: unknown,
  ) {
    const name = textOf(body, 'name');
    const rows = rowsFromBody(body as Record<string, unknown>);
    const edited = applyOp(rows, opFromBody(body as Record<string, unknown>));
    if (edited) return this.editorPage(reply, 200, { name, rows: edited });

    const { fields, rowOfField } = fieldsFromRows(rows);
    const result = await validateFormInput({ name, fields }, 'create');
    if (!result.value) {
      const errors = formInputErrors(
        result.errors,
        rowOfField,
        fields.map((field) => field.id),
      );
      return this.editorPage(reply, 400, { name, rows, errors });
    }
    let form;
    try {
      ({ form } = await this.forms.create(context.owner.id, result.value));
    } catch (error) {
      // Too many forms: said on the page, with what was typed kept.
      if (!(error instanceof ConflictException)) throw error;
      const errors = new PageErrors().add(error.message);
      return this.editorPage(reply, 409, { name, rows, errors });
    }
    return reply.redirect(
      `/dashboard/forms/${encodeURIComponent(form.id)}?done=created`,
      303,
    );
  }

  /** The form's overview: endpoint, key, activity chart, submissions (searchable), snippets. */
  @Get(':formId')
  async detail(
    @Dashboard() context: DashboardContext,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('formId') formId: string,
    @Query() query: Record<string, unknown>,
  ) {
    const principal = ownerPrincipal(context);
    const entity = await this.forms.findAccessible(principal, formId);
    const form = this.forms.toResponse(entity);
    const filters = readFilters(query);
    const cursor = queryText(query.cursor) || undefined;
    const done = queryText(query.done);
    const [apiKey, page, stats, days, warning] = await Promise.all([
      this.forms.revealApiKey(context.owner.id, form.id),
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
    ]);
    const submitUrl = `${baseUrlOf(request)}/api/submit/${encodeURIComponent(form.id)}`;
    const html = htmlSnippet(submitUrl, form.fields);
    const js = fetchSnippet(submitUrl, form.fields);
    const total = stats.get(form.id) ?? { count: 0, lastAt: null };
    return reply.status(filters.errors.any ? 400 : 200).view('form-detail', {
      form,
      apiKey,
      submitUrl,
      htmlSnippet: html,
      htmlRows: lineCount(html),
      fetchSnippet: js,
      fetchRows: lineCount(js),
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
      range: describeRange(filters.values),
      errors: filters.errors,
      total: total.count,
      lastAt: total.lastAt,
      chart: dailyChart(days),
      honeypotHits: entity.honeypotHits,
      warning,
      revealKey: done === 'key-regenerated',
      notice: noticeOf(done, query),
    });
  }

  /** CSV of the submissions the list shows (same search and dates); `bom=true` for Excel. */
  @Get(':formId/submissions.csv')
  @NoDeadline()
  async exportCsv(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @Param('formId') formId: string,
    @Query() query: Record<string, unknown>,
  ) {
    const form = await this.forms.findAccessible(
      ownerPrincipal(context),
      formId,
    );
    const filters = readFilters(query);
    if (filters.errors.any) {
      throw new BadRequestException(
        filters.errors.summary.map((item) => item.text).join('. '),
      );
    }
    const file = await this.submissions.openExport(form, {
      ...filters.input,
      format: 'csv',
      bom: queryText(query.bom) === 'true',
    });
    return reply
      .type(file.contentType)
      .header('cache-control', 'no-store')
      .header(
        'content-disposition',
        `attachment; filename="${file.filename.replace(/[^\w.-]/g, '_')}"`,
      )
      .send(file.stream);
  }

  private editorPage(
    reply: FastifyReply,
    status: number,
    data: { name: string; rows: EditorRow[]; errors?: PageErrors },
  ) {
    return reply
      .status(status)
      .view('form-new', { ...data, fieldTypes: FIELD_TYPES });
  }
}
