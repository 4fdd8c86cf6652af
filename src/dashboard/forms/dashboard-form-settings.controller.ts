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
import { type ErrorIssue } from '../../common/errors/errors.js';
import { ownEntry } from '../../common/values/own-entry.js';
import { DomainVerificationService } from '../../domain-verification/domain-verification.service.js';
import { DomainsService } from '../../domain-verification/domains.service.js';
import type { FormResponseDto } from '../../forms/dto/form-response.dto.js';
import type { Form } from '../../forms/form.entity.js';
import { validateFormInput } from '../../forms/input/form-input.validation.js';
import { FormsService } from '../../forms/forms.service.js';
import { isChecked, textOf } from '../form-body.js';
import {
  Dashboard,
  type DashboardContext,
  memberPrincipal,
} from '../dashboard-context.js';
import { DashboardExceptionFilter } from '../dashboard-exception.filter.js';
import { redirectToForm } from './form-links.js';
import { SignedInGuard } from '../session/dashboard.guards.js';
import { readEditorPost } from './form-editor-post.js';
import { OwnedForm } from './owned-form.decorator.js';
import { addRefusal, PageErrors, sentence } from '../page-errors.js';
import { WithDeadline } from '../../common/http/deadline.interceptor.js';
import {
  FormSettingsPageBuilder,
  SETTINGS_NOTICES,
  type DeletePageState,
  type SettingsPageState,
} from './form-settings-page.builder.js';
import { Requires } from '../../auth/route-access.decorator.js';

/** form-regenerate.eta. */
export interface RegeneratePageView {
  form: FormResponseDto;
}

/** How long the dashboard's "Rotate with 24 h overlap" keeps the old key valid. */
export const ROTATION_OVERLAP_SECONDS = 24 * 3600;

const AFTER_SUBMIT_LABELS = {
  redirectUrl: 'Redirect address',
  successMessage: 'Thank-you message',
} as const;

/** A refused "After submitting" post's message, worded and placed by the field it is about. */
function afterSubmitError(
  message: string,
  issue: ErrorIssue | undefined,
): [string, string?] {
  const field =
    issue?.field === 'redirectUrl' || issue?.field === 'successMessage'
      ? issue.field
      : undefined;
  if (field === undefined || issue?.detail === undefined) {
    return [sentence(message)];
  }
  return [`${AFTER_SUBMIT_LABELS[field]} ${issue.detail}`, field];
}

/** A form's settings: name and fields, domain verification, key regeneration, deletion. */
@ApiExcludeController()
@WithDeadline()
@Controller('dashboard/forms/:formId')
@UseGuards(SignedInGuard)
@UseFilters(DashboardExceptionFilter)
export class DashboardFormSettingsController {
  constructor(
    private readonly forms: FormsService,
    private readonly domains: DomainsService,
    private readonly verification: DomainVerificationService,
    private readonly pages: FormSettingsPageBuilder,
  ) {}

  @Get('settings')
  @Requires('forms.read')
  settings(
    @Res() reply: FastifyReply,
    @OwnedForm() form: Form,
    @Query('done') done?: string,
  ) {
    return this.settingsPage(reply, form, 200, {
      notice: ownEntry(SETTINGS_NOTICES, done),
    });
  }

  @Post('settings')
  @Requires('forms.write')
  async save(
    @Res() reply: FastifyReply,
    @OwnedForm() form: Form,
    @Dashboard() context: DashboardContext,
    @Body() body: unknown,
  ) {
    const post = await readEditorPost(body, 'patch');
    if (post.kind !== 'valid') {
      const status = post.kind === 'edited' ? 200 : 400;
      return this.settingsPage(reply, form, status, {
        editor: post.editor,
      });
    }
    await this.forms.patch(
      form,
      {
        name: post.value.name,
        fields: post.value.fields ?? [],
      },
      memberPrincipal(context),
    );
    return redirectToForm(reply, form.id, {
      page: 'settings',
      done: 'saved',
      anchor: 'general',
    });
  }

  /** What a visitor's browser shows after a native form post: a redirect or a message. */
  @Post('settings/after-submit')
  @Requires('forms.write')
  async saveAfterSubmit(
    @Res() reply: FastifyReply,
    @OwnedForm() form: Form,
    @Dashboard() context: DashboardContext,
    @Body() body: unknown,
  ) {
    const redirectUrl = textOf(body, 'redirectUrl');
    const successMessage = textOf(body, 'successMessage');
    const result = await validateFormInput(
      { redirectUrl, successMessage },
      'patch',
    );
    if (!result.value) {
      const errors = new PageErrors();
      result.errors.forEach((message, index) => {
        errors.add(...afterSubmitError(message, result.issues?.[index]));
      });
      return this.settingsPage(reply, form, 400, {
        redirectUrl,
        successMessage,
        errors,
      });
    }
    await this.forms.patch(
      form,
      {
        redirectUrl: result.value.redirectUrl ?? null,
        successMessage: result.value.successMessage ?? null,
      },
      memberPrincipal(context),
    );
    return redirectToForm(reply, form.id, {
      page: 'settings',
      done: 'after-submit-saved',
      anchor: 'after-submit',
    });
  }

  @Post('settings/verification')
  @Requires('domains.manage')
  async setVerification(
    @Res() reply: FastifyReply,
    @OwnedForm() form: Form,
    @Dashboard() context: DashboardContext,
    @Body() body: unknown,
  ) {
    const enabled = isChecked(body, 'domainVerification');
    await this.forms.patch(
      form,
      { domainVerification: enabled },
      memberPrincipal(context),
    );
    this.verification.invalidate(form.id);
    return redirectToForm(reply, form.id, {
      page: 'settings',
      done: enabled ? 'verification-on' : 'verification-off',
      anchor: 'domains',
    });
  }

  @Post('domains')
  @Requires('domains.manage')
  async addDomain(
    @Res() reply: FastifyReply,
    @OwnedForm() form: Form,
    @Dashboard() context: DashboardContext,
    @Body() body: unknown,
  ) {
    const domain = textOf(body, 'domain').trim();
    const errors = new PageErrors();
    if (!domain) {
      errors.add('Enter a domain, e.g. example.com', 'domain');
    } else {
      try {
        await this.domains.add(form, { domain }, memberPrincipal(context));
      } catch (error) {
        addRefusal(errors, error, 'domain');
      }
    }
    if (errors.any) {
      return this.settingsPage(reply, form, 400, { domain, errors });
    }
    return redirectToForm(reply, form.id, {
      page: 'settings',
      done: 'domain-added',
      anchor: 'domains',
    });
  }

  @Post('domains/:domain/verify')
  @Requires('domains.manage')
  async verifyDomain(
    @Res() reply: FastifyReply,
    @OwnedForm() form: Form,
    @Dashboard() context: DashboardContext,
    @Param('domain') domain: string,
  ) {
    const result = await this.domains.verify(
      form,
      domain,
      memberPrincipal(context),
    );
    const done =
      result.status === 'verified' && !result.lastError
        ? 'domain-verified'
        : 'domain-not-verified';
    return redirectToForm(reply, form.id, {
      page: 'settings',
      done,
      anchor: 'domains',
    });
  }

  @Post('domains/:domain/delete')
  @Requires('domains.manage')
  async removeDomain(
    @Res() reply: FastifyReply,
    @OwnedForm() form: Form,
    @Dashboard() context: DashboardContext,
    @Param('domain') domain: string,
  ) {
    await this.domains.remove(form, domain, memberPrincipal(context));
    return redirectToForm(reply, form.id, {
      page: 'settings',
      done: 'domain-removed',
      anchor: 'domains',
    });
  }

  @Get('regenerate-key')
  @Requires('keys.manage')
  async confirmRegenerate(@Res() reply: FastifyReply, @OwnedForm() form: Form) {
    return reply.view('form-regenerate', {
      form: await this.forms.describe(form),
    } satisfies RegeneratePageView);
  }

  /** Regenerate (the old key refused at once) or, with `overlap=24h`, rotate. */
  @Post('regenerate-key')
  @Requires('keys.manage')
  async regenerate(
    @Res() reply: FastifyReply,
    @OwnedForm() form: Form,
    @Dashboard() context: DashboardContext,
    @Body() body: unknown,
  ) {
    const overlap = textOf(body, 'overlap') === '24h';
    await this.forms.regenerateKey(
      form,
      memberPrincipal(context),
      overlap ? ROTATION_OVERLAP_SECONDS : 0,
    );
    return redirectToForm(reply, form.id, {
      page: 'setup',
      done: overlap ? 'key-rotated' : 'key-regenerated',
    });
  }

  @Get('delete')
  @Requires('forms.delete')
  async confirmDelete(@Res() reply: FastifyReply, @OwnedForm() form: Form) {
    return this.deletePage(reply, form, 200, {});
  }

  @Post('delete')
  @Requires('forms.delete')
  async remove(
    @Res() reply: FastifyReply,
    @OwnedForm() form: Form,
    @Dashboard() context: DashboardContext,
    @Body() body: unknown,
  ) {
    const confirmName = textOf(body, 'confirmName');
    if (confirmName.trim() !== form.name.trim()) {
      const errors = new PageErrors().add(
        `Type the form name exactly as shown (${form.name}) to delete it`,
        'confirmName',
      );
      return this.deletePage(reply, form, 400, {
        confirmName,
        errors,
      });
    }
    await this.forms.remove(form, memberPrincipal(context));
    return reply.redirect('/dashboard/forms?done=deleted', 303);
  }

  private async deletePage(
    reply: FastifyReply,
    form: Form,
    status: number,
    state: DeletePageState,
  ) {
    const data = await this.pages.deletion(form, state);
    return reply.status(status).view('form-delete', data);
  }

  private async settingsPage(
    reply: FastifyReply,
    form: Form,
    status: number,
    state: SettingsPageState,
  ) {
    const data = await this.pages.settings(form, state);
    return reply.status(status).view('form-settings', data);
  }
}
