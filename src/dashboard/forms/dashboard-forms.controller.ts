import {
  BadRequestException,
  Body,
  ConflictException,
  Controller,
  Get,
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
import type { FormResponseDto } from '../../forms/dto/form-response.dto.js';
import type { Form } from '../../forms/form.entity.js';
import { FormsService } from '../../forms/forms.service.js';
import type { FormSubmissionStats } from '../../submissions/submission.repository.js';
import { SubmissionsService } from '../../submissions/submissions.service.js';
import {
  baseUrlOf,
  Dashboard,
  memberPrincipal,
  type DashboardContext,
} from '../dashboard-context.js';
import { DashboardExceptionFilter } from '../dashboard-exception.filter.js';
import { redirectToForm } from './form-links.js';
import { queryText, readFilters } from './dashboard-filters.js';
import { SignedInGuard } from '../session/dashboard.guards.js';
import { blankRow } from './form-editor.js';
import {
  editorView,
  readEditorPost,
  type EditorView,
} from './form-editor-post.js';
import { OwnedForm } from './owned-form.decorator.js';
import { PageErrors } from '../page-errors.js';
import { FormPageBuilder, NOTICES } from './form-page.builder.js';
import { Requires } from '../../auth/route-access.decorator.js';

/** forms-list.eta: the account's forms, with each one's submission count and latest. */
export interface FormsListView {
  forms: FormResponseDto[];
  stats: Record<string, FormSubmissionStats>;
  notice: string | undefined;
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
    private readonly formPage: FormPageBuilder,
  ) {}

  @Get()
  @Requires('forms.read')
  async list(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @Query('done') done?: string,
  ) {
    const forms = await this.forms.list(memberPrincipal(context));
    const stats = await this.submissions.countByForms(forms.map((f) => f.id));
    return reply.view('forms-list', {
      forms,
      stats: Object.fromEntries(stats),
      notice: ownEntry(NOTICES, done),
    } satisfies FormsListView);
  }

  @Get('new')
  @Requires('forms.write')
  newForm(@Res() reply: FastifyReply) {
    return this.editorPage(reply, 200, editorView('', [blankRow()]));
  }

  @Post('new')
  @Requires('forms.write')
  async create(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @Body() body: unknown,
  ) {
    const post = await readEditorPost(body, 'create');
    if (post.kind === 'edited') return this.editorPage(reply, 200, post.editor);
    if (post.kind === 'invalid') {
      return this.editorPage(reply, 400, post.editor);
    }
    let form;
    try {
      ({ form } = await this.forms.create(
        context.account.id,
        post.value,
        memberPrincipal(context),
      ));
    } catch (error) {
      // Too many forms: said on the page, with what was typed kept.
      if (!(error instanceof ConflictException)) throw error;
      const errors = new PageErrors().add(error.message);
      return this.editorPage(reply, 409, { ...post.editor, errors });
    }
    return redirectToForm(reply, form.id, { done: 'created' });
  }

  /** The form's overview: endpoint, key, activity chart, submissions (searchable), snippets. */
  @Get(':formId')
  @Requires('forms.read')
  async detail(
    @Dashboard() context: DashboardContext,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @OwnedForm() form: Form,
    @Query() query: Record<string, unknown>,
  ) {
    const page = await this.formPage.build(
      context,
      baseUrlOf(request),
      form,
      query,
    );
    return reply.status(page.status).view('form-detail', page.data);
  }

  /** CSV of the submissions the list shows (same search and dates); `bom=true` for Excel. */
  @Get(':formId/submissions.csv')
  @Requires('submissions.export')
  @NoDeadline()
  async exportCsv(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @OwnedForm() form: Form,
    @Query() query: Record<string, unknown>,
  ) {
    const filters = readFilters(query);
    if (filters.errors.any) {
      throw new BadRequestException(
        filters.errors.summary.map((item) => item.text).join('. '),
      );
    }
    const file = await this.submissions.openExport(
      form,
      {
        ...filters.input,
        format: 'csv',
        bom: queryText(query.bom) === 'true',
      },
      memberPrincipal(context),
    );
    return reply
      .type(file.contentType)
      .header('cache-control', 'no-store')
      .header(
        'content-disposition',
        `attachment; filename="${file.filename.replace(/[^\w.-]/g, '_')}"`,
      )
      .send(file.stream);
  }

  /** form-new.eta: the editor alone. */
  private editorPage(reply: FastifyReply, status: number, editor: EditorView) {
    return reply.status(status).view('form-new', editor);
  }
}
