import {
  Dashboard,
  memberPrincipal,
  type DashboardContext,
} from '../dashboard-context.js';
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
import {
  NoDeadline,
  WithDeadline,
} from '../../common/http/deadline.interceptor.js';
import type { FormResponseDto } from '../../forms/dto/form-response.dto.js';
import type { Form } from '../../forms/form.entity.js';
import { FormsService } from '../../forms/forms.service.js';
import { sendDownload } from '../../files/downloads/download-reply.js';
import { FilesService } from '../../files/files.service.js';
import { roleHas } from '../../auth/permissions.js';
import { InboxService } from '../../submissions/inbox/inbox.service.js';
import { SubmissionStatsService } from '../../submissions/queries/submission-stats.service.js';
import { SubmissionsService } from '../../submissions/submissions.service.js';
import { DashboardExceptionFilter } from '../dashboard-exception.filter.js';
import { formPath } from './form-links.js';
import { safeBack, withDone } from './inbox-filters.js';
import { textOf } from '../form-body.js';
import {
  describeRange,
  filterQuery,
  readFilters,
  type DashboardFilters,
  type FilterValues,
} from './dashboard-filters.js';
import { OwnedForm } from './owned-form.decorator.js';
import type { PageErrors } from '../page-errors.js';
import { SignedInGuard } from '../session/dashboard.guards.js';
import { Requires } from '../../auth/route-access.decorator.js';
import { SubmissionPageBuilder } from './submission-page.builder.js';

/** submissions-delete.eta: the confirmation of deleting a date range. */
export interface BulkDeleteView {
  form: FormResponseDto;
  /** How many submissions the range holds. */
  count: number;
  range: string;
  values: FilterValues;
  errors: PageErrors;
  back: string;
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
    private readonly inbox: InboxService,
    private readonly pages: SubmissionPageBuilder,
  ) {}

  // Static paths first: "delete" is never read as a submission id.
  @Get('delete')
  @Requires('submissions.delete')
  async confirmBulkDelete(
    @Res() reply: FastifyReply,
    @OwnedForm() form: Form,
    @Query() query: Record<string, unknown>,
  ) {
    // Bulk delete goes by date range only; a search term is not carried over.
    const filters = readFilters({ from: query.from, to: query.to });
    const count = filters.errors.any
      ? 0
      : await this.stats.countInRange(form, filters.input);
    return reply
      .status(filters.errors.any ? 400 : 200)
      .view(
        'submissions-delete',
        this.bulkDeleteView(
          form,
          count,
          filters,
          `${formPath(form.id)}${filterQuery(filters.values)}#submissions-title`,
        ),
      );
  }

  @Post('delete')
  @Requires('submissions.delete')
  @NoDeadline()
  async bulkDelete(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @OwnedForm() form: Form,
    @Body() body: Record<string, unknown>,
  ) {
    const filters = readFilters({ from: body.from, to: body.to });
    if (filters.errors.any) {
      return reply
        .status(400)
        .view(
          'submissions-delete',
          this.bulkDeleteView(form, 0, filters, formPath(form.id)),
        );
    }
    const { deleted } = await this.submissions.removeMany(
      form,
      filters.input,
      memberPrincipal(context),
    );
    const range: Partial<FilterValues> = filters.values;
    return reply.redirect(
      `${formPath(form.id)}${filterQuery(range, { done: 'bulk-deleted', deleted: String(deleted) })}`,
      303,
    );
  }

  /**
   * One submission with its work controls and notes. Opened by a member who works
   * submissions, a `new` one becomes `open` (DESIGN 20); a viewer's reading changes nothing.
   */
  @Get(':submissionId')
  @Requires('submissions.read')
  async detail(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @OwnedForm() form: Form,
    @Param('submissionId') submissionId: string,
    @Query('done') done?: unknown,
    @Query('back') back?: unknown,
  ) {
    if (roleHas(context.account.role, 'submissions.work')) {
      await this.inbox.openOnView(form.id, submissionId);
    }
    return reply.view(
      'submission-detail',
      await this.pages.build(context, form, submissionId, {
        done: typeof done === 'string' ? done : undefined,
        back: safeBack(back),
      }),
    );
  }

  @Get(':submissionId/delete')
  @Requires('submissions.delete')
  async confirmDelete(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @OwnedForm() form: Form,
    @Param('submissionId') submissionId: string,
    @Query('back') back?: unknown,
  ) {
    const view = await this.pages.build(context, form, submissionId, {
      back: safeBack(back),
    });
    return reply.view('submission-delete', {
      ...view,
      fields: view.fields.slice(0, 3),
    });
  }

  @Post(':submissionId/delete')
  @Requires('submissions.delete')
  async remove(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @OwnedForm() form: Form,
    @Param('submissionId') submissionId: string,
    @Body() body: unknown,
  ) {
    await this.submissions.remove(form, submissionId, memberPrincipal(context));
    // Back to the list it was opened from (its tab and filters), with the notice.
    const back = safeBack(textOf(body, 'back'));
    return reply.redirect(
      `${formPath(form.id)}${withDone(back, 'submission-deleted')}`,
      303,
    );
  }

  /** A file of the submission, as the API's download route sends it (docs/files.md). */
  @Get(':submissionId/files/:fileId')
  @Requires('submissions.read')
  @NoDeadline()
  async file(
    @Res() reply: FastifyReply,
    @OwnedForm() form: Form,
    @Param('submissionId') submissionId: string,
    @Param('fileId') fileId: string,
  ) {
    await sendDownload(
      reply,
      await this.files.open(form, submissionId, fileId),
    );
  }

  private bulkDeleteView(
    form: Form,
    count: number,
    filters: DashboardFilters,
    back: string,
  ): BulkDeleteView {
    return {
      form: this.forms.toResponse(form),
      count,
      range: describeRange(filters.values),
      values: filters.values,
      errors: filters.errors,
      back,
    };
  }
}
