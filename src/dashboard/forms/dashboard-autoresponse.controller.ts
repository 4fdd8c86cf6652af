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
import { Requires } from '../../auth/route-access.decorator.js';
import { WithDeadline } from '../../common/http/deadline.interceptor.js';
import { ValidationFailedException } from '../../common/errors/errors.js';
import { validateFormInput } from '../../forms/input/form-input.validation.js';
import type { Form } from '../../forms/form.entity.js';
import { FormsService } from '../../forms/forms.service.js';
import { DashboardExceptionFilter } from '../dashboard-exception.filter.js';
import { textOf } from '../form-body.js';
import { sentence } from '../page-errors.js';
import { SignedInGuard } from '../session/dashboard.guards.js';
import { redirectToForm } from './form-links.js';
import { FormSettingsPageBuilder } from './form-settings-page.builder.js';
import { OwnedForm } from './owned-form.decorator.js';

/** The Autoresponse section of a form's settings (docs/notifications.md). */
@ApiExcludeController()
@WithDeadline()
@Controller('dashboard/forms/:formId')
@UseGuards(SignedInGuard)
@UseFilters(DashboardExceptionFilter)
export class DashboardAutoresponseController {
  constructor(
    private readonly forms: FormsService,
    private readonly settings: FormSettingsPageBuilder,
  ) {}

  @Post('settings/autoresponse')
  @Requires('notifications.manage')
  async save(
    @Res() reply: FastifyReply,
    @OwnedForm() form: Form,
    @Body() body: unknown,
  ) {
    const replyTo = textOf(body, 'replyTo').trim();
    const result = await validateFormInput(
      {
        autoresponse: {
          enabled: textOf(body, 'enabled') === 'on',
          emailField: textOf(body, 'emailField'),
          subject: textOf(body, 'subject').trim(),
          text: textOf(body, 'text'),
          replyTo: replyTo === '' ? null : replyTo,
        },
      },
      'patch',
    );
    let errors = result.errors;
    if (result.value) {
      try {
        await this.forms.patch(form, {
          autoresponse: result.value.autoresponse,
        });
        return redirectToForm(reply, form.id, {
          page: 'settings',
          done: 'autoresponse-saved',
          anchor: 'autoresponse',
        });
      } catch (error) {
        if (!(error instanceof ValidationFailedException)) throw error;
        errors = error.errors;
      }
    }
    const data = await this.settings.settings(form, {
      notice: {
        section: 'autoresponse',
        text: errors.map((message) => sentence(message)).join(' '),
      },
    });
    return reply.status(400).view('form-settings', data);
  }
}
