// A form's retention on its settings page: how many days submissions are kept before the
// "retention" sweep deletes them (empty: kept until deleted).
import {
  Dashboard,
  memberPrincipal,
  type DashboardContext,
} from '../dashboard-context.js';
import {
  Body,
  Controller,
  Post,
  Res,
  UseFilters,
  UseGuards,
} from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { WithDeadline } from '../../common/http/deadline.interceptor.js';
import { validateFormInput } from '../../forms/input/form-input.validation.js';
import type { Form } from '../../forms/form.entity.js';
import { FormsService } from '../../forms/forms.service.js';
import { DashboardExceptionFilter } from '../dashboard-exception.filter.js';
import { textOf } from '../form-body.js';
import { PageErrors } from '../page-errors.js';
import { SignedInGuard } from '../session/dashboard.guards.js';
import { redirectToForm } from './form-links.js';
import { FormSettingsPageBuilder } from './form-settings-page.builder.js';
import { OwnedForm } from './owned-form.decorator.js';
import { Requires } from '../../auth/route-access.decorator.js';

export const RETENTION_ERROR =
  'Keep submissions for a whole number of days from 1 to 3650, or leave it empty to keep them';

/** The typed days: empty is null (keep), digits a number, anything else left to refuse. */
function typedDays(text: string): number | null | string {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  return /^\d{1,9}$/.test(trimmed) ? Number(trimmed) : trimmed;
}

@ApiExcludeController()
@WithDeadline()
@Controller('dashboard/forms/:formId')
@UseGuards(SignedInGuard)
@UseFilters(DashboardExceptionFilter)
export class DashboardRetentionController {
  constructor(
    private readonly forms: FormsService,
    private readonly pages: FormSettingsPageBuilder,
  ) {}

  @Post('settings/retention')
  @Requires('forms.write')
  async saveRetention(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @OwnedForm() form: Form,
    @Body() body: unknown,
  ) {
    const retentionDays = textOf(body, 'retentionDays');
    const result = await validateFormInput(
      { retentionDays: typedDays(retentionDays) },
      'patch',
    );
    if (!result.value) {
      const errors = new PageErrors().add(RETENTION_ERROR, 'retentionDays');
      const data = await this.pages.settings(form, {
        retentionDays,
        errors,
      });
      return reply.status(400).view('form-settings', data);
    }
    const days = result.value.retentionDays ?? null;
    await this.forms.patch(
      form,
      { retentionDays: days },
      memberPrincipal(context),
    );
    return redirectToForm(reply, form.id, {
      page: 'settings',
      done: days === null ? 'retention-off' : 'retention-saved',
      anchor: 'retention',
    });
  }
}
