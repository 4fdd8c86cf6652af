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
import { FIELD_TYPES } from '../../forms/form.entity.js';
import { validateFormInput } from '../../forms/form-input.validation.js';
import { FormsService } from '../../forms/forms.service.js';
import { SubmissionsService } from '../../submissions/submissions.service.js';
import { textOf } from '../form-body.js';
import {
  baseUrlOf,
  Dashboard,
  ownerPrincipal,
  type DashboardContext,
} from '../dashboard-context.js';
import { DashboardExceptionFilter } from '../dashboard-exception.filter.js';
import { redirectToForm } from './form-links.js';
import { queryText, readFilters } from './dashboard-filters.js';
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
import { FormPageBuilder, NOTICES } from './form-page.builder.js';

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
    return redirectToForm(reply, form.id, { done: 'created' });
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
    const page = await this.formPage.build(
      context,
      baseUrlOf(request),
      formId,
      query,
    );
    return reply.status(page.status).view('form-detail', page.data);
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
