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
import { WithDeadline } from '../../common/http/deadline.interceptor.js';
import { ValidationFailedException } from '../../common/errors/errors.js';
import { validateFormInput } from '../../forms/input/form-input.validation.js';
import { FormsService } from '../../forms/forms.service.js';
import { SubmissionsService } from '../../submissions/submissions.service.js';
import type { Form } from '../../forms/form.entity.js';
import { DashboardExceptionFilter } from '../dashboard-exception.filter.js';
import { textOf } from '../form-body.js';
import { SignedInGuard } from '../session/dashboard.guards.js';
import { redirectToForm } from './form-links.js';
import { FormSettingsPageBuilder } from './form-settings-page.builder.js';
import { OwnedForm } from './owned-form.decorator.js';
import { SpamPageBuilder } from './spam-page.builder.js';
import {
  spamSettingsErrors,
  spamSettingsFromBody,
  spamSettingsInput,
} from './spam-settings.js';
import { Requires } from '../../auth/route-access.decorator.js';

/**
 * A form's Spam tab (the spam folder: reasons, Not spam) and the "Spam protection"
 * section of its settings (the CAPTCHA and the content rules).
 */
@ApiExcludeController()
@WithDeadline()
@Controller('dashboard/forms/:formId')
@UseGuards(SignedInGuard)
@UseFilters(DashboardExceptionFilter)
export class DashboardSpamController {
  constructor(
    private readonly forms: FormsService,
    private readonly submissions: SubmissionsService,
    private readonly pages: SpamPageBuilder,
    private readonly settings: FormSettingsPageBuilder,
  ) {}

  @Get('spam')
  @Requires('submissions.read')
  async spam(
    @Res() reply: FastifyReply,
    @OwnedForm() form: Form,
    @Query('cursor') cursor?: string,
    @Query('done') done?: string,
  ) {
    const data = await this.pages.build(
      form,
      typeof cursor === 'string' && cursor !== '' ? cursor : undefined,
      typeof done === 'string' ? done : '',
    );
    return reply.view('form-spam', data);
  }

  /** Not spam: out of the folder, and notified now (once). */
  @Post('spam/:submissionId/release')
  @Requires('submissions.work')
  async release(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @OwnedForm() form: Form,
    @Param('submissionId') submissionId: string,
  ) {
    await this.submissions.fileAsSpam(
      form,
      submissionId,
      false,
      memberPrincipal(context),
    );
    return redirectToForm(reply, form.id, { page: 'spam', done: 'released' });
  }

  /** Into the folder from a submission's page. */
  @Post('submissions/:submissionId/spam')
  @Requires('submissions.work')
  async markSpam(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @OwnedForm() form: Form,
    @Param('submissionId') submissionId: string,
  ) {
    await this.submissions.fileAsSpam(
      form,
      submissionId,
      true,
      memberPrincipal(context),
    );
    return redirectToForm(reply, form.id, {
      page: 'spam',
      done: 'marked-spam',
    });
  }

  /** Ends the CAPTCHA's grace: posts without an answer are refused from now on. */
  @Post('settings/spam/end-grace')
  @Requires('forms.write')
  async endGrace(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @OwnedForm() form: Form,
  ) {
    await this.forms.endCaptchaGrace(form, memberPrincipal(context));
    return redirectToForm(reply, form.id, {
      page: 'settings',
      done: 'grace-ended',
      anchor: 'spam',
    });
  }

  @Post('settings/spam')
  @Requires('forms.write')
  async saveSettings(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @OwnedForm() form: Form,
    @Body() body: unknown,
  ) {
    const typed = spamSettingsFromBody(
      body,
      this.forms.toResponse(form).captcha?.secretSet ?? false,
    );
    const input = spamSettingsInput(typed, textOf(body, 'captchaSecret'));
    const result = await validateFormInput(input, 'patch');
    let errors = result.errors;
    let issues = result.issues;
    if (result.value) {
      try {
        await this.forms.patch(
          form,
          {
            captcha: result.value.captcha,
            spamFilter: result.value.spamFilter,
          },
          memberPrincipal(context),
        );
        return redirectToForm(reply, form.id, {
          page: 'settings',
          done: 'spam-saved',
          anchor: 'spam',
        });
      } catch (error) {
        if (!(error instanceof ValidationFailedException)) throw error;
        errors = error.errors;
        issues = error.issues;
      }
    }
    const data = await this.settings.settings(form, {
      spam: typed,
      errors: spamSettingsErrors(errors, issues),
    });
    return reply.status(400).view('form-settings', data);
  }
}
