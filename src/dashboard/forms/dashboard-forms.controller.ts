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
import {
  NoDeadline,
  WithDeadline,
} from '../../common/http/deadline.interceptor.js';
import { ownEntry } from '../../common/values/own-entry.js';
import type { FormResponseDto } from '../../forms/dto/form-response.dto.js';
import type { Form } from '../../forms/form.entity.js';
import { FormsService } from '../../forms/forms.service.js';
import { FormCounterRepository } from '../../submissions/counters/form-counter.repository.js';
import type { FormCounts } from '../../submissions/counters/form-counters.js';
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
import { inboxListFilter, readInboxValues } from './inbox-filters.js';
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
import { FormSetupBuilder } from './form-setup.builder.js';
import { Requires } from '../../auth/route-access.decorator.js';

/** forms-list.eta: the account's forms, each with its counts (new ones too) and latest. */
export interface FormsListView {
  forms: FormResponseDto[];
  /** From the forms' counters: nothing here counts a form's rows. */
  stats: Record<string, FormCounts>;
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
    private readonly setup: FormSetupBuilder,
    private readonly counters: FormCounterRepository,
  ) {}

  @Get()
  @Requires('forms.read')
  async list(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @Query('done') done?: string,
  ) {
    const forms = await this.forms.list(memberPrincipal(context));
    const stats = await this.counters.countsByForms(forms.map((f) => f.id));
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

  /** The form's inbox: its submissions (searchable), then the activity chart and counts. */
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

  /** The Setup tab: form id, endpoint, key (for those who manage keys) and snippets. */
  @Get(':formId/setup')
  @Requires('forms.read')
  async setupPage(
    @Dashboard() context: DashboardContext,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @OwnedForm() form: Form,
    @Query('done') done?: string,
  ) {
    const step = typeof done === 'string' ? done : '';
    const page = await this.setup.page(
      context,
      baseUrlOf(request),
      form,
      step,
      ownEntry(NOTICES, step),
    );
    return reply.view('form-setup', page);
  }

  /** CSV of the submissions the list shows (same tab, label, search and dates); `bom=true` for Excel. */
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
    // Without a tab named, every status (the list's links name theirs).
    const inbox = readInboxValues(query, filters.values, filters.errors, 'all');
    if (filters.errors.any) {
      throw new BadRequestException(
        filters.errors.summary.map((item) => item.text).join('. '),
      );
    }
    const file = await this.submissions.openExport(
      form,
      {
        ...filters.input,
        ...inboxListFilter(inbox, context.user.id),
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
