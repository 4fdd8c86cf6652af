import {
  BadRequestException,
  Body,
  ConflictException,
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
import { Requires } from '../../auth/route-access.decorator.js';
import { WithDeadline } from '../../common/http/deadline.interceptor.js';
import { ownEntry } from '../../common/values/own-entry.js';
import {
  labelColor,
  labelName,
  LabelsService,
} from '../../submissions/inbox/labels.service.js';
import {
  Dashboard,
  memberPrincipal,
  type DashboardContext,
} from '../dashboard-context.js';
import { DashboardExceptionFilter } from '../dashboard-exception.filter.js';
import { textOf } from '../form-body.js';
import { PageErrors, sentence } from '../page-errors.js';
import { SignedInGuard } from '../session/dashboard.guards.js';
import {
  LABEL_NOTICES,
  LabelsPageBuilder,
  rowField,
  type LabelDeleteView,
  type LabelInput,
  type LabelsPageState,
} from './labels-page.builder.js';

const LABELS_PATH = '/dashboard/account/labels';

/**
 * The account's labels in the dashboard (docs/inbox.md): every role reads them; editors and
 * above (`submissions.work`, as on the API) make, rename, recolour and delete them through
 * the API's own service — so the same checks, and the same audit events. A refused post is
 * the page again with the API's message beside its input: 400 for a bad name or colour,
 * 409 for a name the account has.
 */
@ApiExcludeController()
@WithDeadline()
@Controller('dashboard/account/labels')
@UseGuards(SignedInGuard)
@UseFilters(DashboardExceptionFilter)
export class DashboardLabelsController {
  constructor(
    private readonly labels: LabelsService,
    private readonly pages: LabelsPageBuilder,
  ) {}

  @Get()
  @Requires('submissions.read')
  async page(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @Query('done') done?: string,
  ) {
    return this.render(context, reply, 200, {
      notice: ownEntry(LABEL_NOTICES, done),
    });
  }

  @Post()
  @Requires('submissions.work')
  async create(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @Body() body: unknown,
  ) {
    const input = inputOf(body);
    const errors = checked(input, (key) => key);
    let status = 400;
    if (!errors.any) {
      try {
        await this.labels.create(
          context.account.id,
          input,
          memberPrincipal(context),
        );
        return reply.redirect(`${LABELS_PATH}?done=created#labels-title`, 303);
      } catch (error) {
        status = refused(errors, error, 'name');
      }
    }
    return this.render(context, reply, status, {
      create: input,
      errors,
    });
  }

  @Post(':labelId')
  @Requires('submissions.work')
  async update(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @Param('labelId') labelId: string,
    @Body() body: unknown,
  ) {
    // Another account's label, or one deleted meanwhile: the 404 page.
    await this.labels.find(context.account.id, labelId);
    const input = inputOf(body);
    const errors = checked(input, (key) => rowField(labelId, key));
    let status = 400;
    if (!errors.any) {
      try {
        await this.labels.update(
          context.account.id,
          labelId,
          input,
          memberPrincipal(context),
        );
        return reply.redirect(
          `${LABELS_PATH}?done=saved#label-${encodeURIComponent(labelId)}`,
          303,
        );
      } catch (error) {
        status = refused(errors, error, rowField(labelId, 'name'));
      }
    }
    return this.render(context, reply, status, {
      edit: { labelId, input },
      errors,
    });
  }

  @Get(':labelId/delete')
  @Requires('submissions.work')
  async confirmDelete(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @Param('labelId') labelId: string,
  ) {
    const label = await this.labels.find(context.account.id, labelId);
    return reply.view('label-delete', { label } satisfies LabelDeleteView);
  }

  @Post(':labelId/delete')
  @Requires('submissions.work')
  async remove(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @Param('labelId') labelId: string,
  ) {
    await this.labels.remove(
      context.account.id,
      labelId,
      memberPrincipal(context),
    );
    return reply.redirect(`${LABELS_PATH}?done=deleted#labels-title`, 303);
  }

  private async render(
    context: DashboardContext,
    reply: FastifyReply,
    status: number,
    state: LabelsPageState,
  ) {
    return reply
      .status(status)
      .view('labels', await this.pages.build(context, state));
  }
}

function inputOf(body: unknown): LabelInput {
  return { name: textOf(body, 'name'), color: textOf(body, 'color') };
}

/** The API's checks of the name and the colour, each message beside its input. */
function checked(
  input: LabelInput,
  field: (key: keyof LabelInput) => string,
): PageErrors {
  const errors = new PageErrors();
  const checks = [
    ['name', labelName],
    ['color', labelColor],
  ] as const;
  for (const [key, check] of checks) {
    try {
      check(input[key]);
    } catch (error) {
      if (!(error instanceof BadRequestException)) throw error;
      errors.add(sentence(error.message), field(key));
    }
  }
  return errors;
}

/** A name the account already has: said beside the name, 409; anything else is thrown on. */
function refused(errors: PageErrors, error: unknown, field: string): number {
  if (!(error instanceof ConflictException)) throw error;
  errors.add(error.message, field);
  return 409;
}
