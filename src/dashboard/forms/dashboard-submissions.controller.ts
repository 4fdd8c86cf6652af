import {
  Body,
  Controller,
  Get,
  Param,
  Post,
  Query,
  Res,
  UseFilters,
  UseGuards,
} from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { NoDeadline, WithDeadline } from '../../common/deadline.interceptor.js';
import type { FieldDefinition } from '../../forms/form.entity.js';
import { FormsService } from '../../forms/forms.service.js';
import { sendDownload } from '../../files/download-reply.js';
import { FilesService } from '../../files/files.service.js';
import type { SubmissionDto } from '../../submissions/dto/submission.dto.js';
import { SubmissionStatsService } from '../../submissions/submission-stats.service.js';
import { SubmissionsService } from '../../submissions/submissions.service.js';
import {
  Dashboard,
  ownerPrincipal,
  type DashboardContext,
} from '../dashboard-context.js';
import { DashboardExceptionFilter } from '../dashboard-exception.filter.js';
import { formPath, redirectToForm } from './form-links.js';
import {
  describeRange,
  filterQuery,
  readFilters,
  type FilterValues,
} from './dashboard-filters.js';
import { SignedInGuard } from '../session/dashboard.guards.js';

export interface SubmissionField {
  key: string;
  label: string;
  value: unknown;
  /** A key the form's current fields no longer (or never) had. */
  extra: boolean;
}

/** Every configured field in form order (sent or not), then any other stored key. */
export function submissionFields(
  fields: FieldDefinition[],
  data: SubmissionDto['data'],
): SubmissionField[] {
  const rows: SubmissionField[] = fields.map((field) => ({
    key: field.id,
    label: field.label?.trim() || field.id,
    value: Object.hasOwn(data, field.id) ? data[field.id] : undefined,
    extra: false,
  }));
  const known = new Set(fields.map((field) => field.id));
  for (const key of Object.keys(data)) {
    if (!known.has(key)) {
      rows.push({ key, label: key, value: data[key], extra: true });
    }
  }
  return rows;
}

/** One submission (read, delete) and deleting a date range of them, each with a confirm step. */
@ApiExcludeController()
@WithDeadline()
@Controller('dashboard/forms/:formId/submissions')
@UseGuards(SignedInGuard)
@UseFilters(DashboardExceptionFilter)
export class DashboardSubmissionsController {
  constructor(
    private readonly forms: FormsService,
    private readonly submissions: SubmissionsService,
    private readonly stats: SubmissionStatsService,
    private readonly files: FilesService,
  ) {}

  // Static paths first: "delete" is never read as a submission id.
  @Get('delete')
  async confirmBulkDelete(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @Param('formId') formId: string,
    @Query() query: Record<string, unknown>,
  ) {
    const form = await this.forms.findAccessible(
      ownerPrincipal(context),
      formId,
    );
    // Bulk delete goes by date range only; a search term is not carried over.
    const filters = readFilters({ from: query.from, to: query.to });
    const count = filters.errors.any
      ? 0
      : await this.stats.countInRange(form, filters.input);
    return reply
      .status(filters.errors.any ? 400 : 200)
      .view('submissions-delete', {
        form: this.forms.toResponse(form),
        count,
        range: describeRange(filters.values),
        values: filters.values,
        errors: filters.errors,
        back: `${formPath(form.id)}${filterQuery(filters.values)}#submissions-title`,
      });
  }

  @Post('delete')
  @NoDeadline()
  async bulkDelete(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @Param('formId') formId: string,
    @Body() body: Record<string, unknown>,
  ) {
    const form = await this.forms.findAccessible(
      ownerPrincipal(context),
      formId,
    );
    const filters = readFilters({ from: body.from, to: body.to });
    if (filters.errors.any) {
      return reply.status(400).view('submissions-delete', {
        form: this.forms.toResponse(form),
        count: 0,
        range: describeRange(filters.values),
        values: filters.values,
        errors: filters.errors,
        back: formPath(form.id),
      });
    }
    const { deleted } = await this.submissions.removeMany(form, filters.input);
    const range: Partial<FilterValues> = filters.values;
    return reply.redirect(
      `${formPath(form.id)}${filterQuery(range, { done: 'bulk-deleted', deleted: String(deleted) })}`,
      303,
    );
  }

  @Get(':submissionId')
  async detail(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @Param('formId') formId: string,
    @Param('submissionId') submissionId: string,
  ) {
    const { form, submission } = await this.find(context, formId, submissionId);
    return reply.view('submission-detail', {
      form,
      submission,
      fields: submissionFields(form.fields, submission.data),
    });
  }

  @Get(':submissionId/delete')
  async confirmDelete(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @Param('formId') formId: string,
    @Param('submissionId') submissionId: string,
  ) {
    const { form, submission } = await this.find(context, formId, submissionId);
    return reply.view('submission-delete', {
      form,
      submission,
      fields: submissionFields(form.fields, submission.data).slice(0, 3),
    });
  }

  @Post(':submissionId/delete')
  async remove(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @Param('formId') formId: string,
    @Param('submissionId') submissionId: string,
  ) {
    const form = await this.forms.findAccessible(
      ownerPrincipal(context),
      formId,
    );
    await this.submissions.remove(form, submissionId);
    return redirectToForm(reply, form.id, { done: 'submission-deleted' });
  }

  /** A file of the submission, as the API's download route sends it (docs/files.md). */
  @Get(':submissionId/files/:fileId')
  @NoDeadline()
  async file(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @Param('formId') formId: string,
    @Param('submissionId') submissionId: string,
    @Param('fileId') fileId: string,
  ) {
    const form = await this.forms.findAccessible(
      ownerPrincipal(context),
      formId,
    );
    await sendDownload(
      reply,
      await this.files.open(form, submissionId, fileId),
    );
  }

  private async find(
    context: DashboardContext,
    formId: string,
    submissionId: string,
  ) {
    const entity = await this.forms.findAccessible(
      ownerPrincipal(context),
      formId,
    );
    const submission = await this.submissions.findOne(entity, submissionId);
    return { form: this.forms.toResponse(entity), submission };
  }
}
