import {
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
import { ValidationFailedException } from '../../common/errors.js';
import { ownEntry } from '../../common/own-entry.js';
import { DomainVerificationService } from '../../domain-verification/domain-verification.service.js';
import { DomainsService } from '../../domain-verification/domains.service.js';
import type { Form } from '../../forms/form.entity.js';
import { validateFormInput } from '../../forms/form-input.validation.js';
import { FormsService } from '../../forms/forms.service.js';
import { isChecked, textOf } from '../form-body.js';
import {
  Dashboard,
  ownerPrincipal,
  type DashboardContext,
} from '../dashboard-context.js';
import { DashboardExceptionFilter } from '../dashboard-exception.filter.js';
import { redirectToForm } from './form-links.js';
import { SignedInGuard } from '../session/dashboard.guards.js';
import {
  applyOp,
  fieldsFromRows,
  opFromBody,
  rowsFromBody,
} from './form-editor.js';
import { formInputErrors, PageErrors, sentence } from '../page-errors.js';
import { WithDeadline } from '../../common/deadline.interceptor.js';
import {
  FormSettingsPageBuilder,
  SETTINGS_NOTICES,
  type DeletePageState,
  type SettingsPageState,
} from './form-settings-page.builder.js';

/** How long the dashboard's "Rotate with 24 h overlap" keeps the old key valid. */
export const ROTATION_OVERLAP_SECONDS = 24 * 3600;

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
  settings(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @Param('formId') formId: string,
    @Query('done') done?: string,
  ) {
    return this.settingsPage(context, reply, formId, 200, {
      notice: ownEntry(SETTINGS_NOTICES, done),
    });
  }

  @Post('settings')
  async save(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @Param('formId') formId: string,
    @Body() body: unknown,
  ) {
    const principal = ownerPrincipal(context);
    const name = textOf(body, 'name');
    const rows = rowsFromBody(body as Record<string, unknown>);
    const edited = applyOp(rows, opFromBody(body as Record<string, unknown>));
    if (edited) {
      return this.settingsPage(context, reply, formId, 200, {
        name,
        rows: edited,
      });
    }
    const { fields, rowOfField } = fieldsFromRows(rows);
    const result = await validateFormInput({ name, fields }, 'patch');
    if (!result.value) {
      const errors = formInputErrors(
        result.errors,
        rowOfField,
        fields.map((field) => field.id),
      );
      return this.settingsPage(context, reply, formId, 400, {
        name,
        rows,
        errors,
      });
    }
    await this.forms.patch(principal, formId, {
      name: result.value.name,
      fields: result.value.fields ?? [],
    });
    return redirectToForm(reply, formId, { page: 'settings', done: 'saved' });
  }

  /** What a visitor's browser shows after a native form post: a redirect or a message. */
  @Post('settings/after-submit')
  async saveAfterSubmit(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @Param('formId') formId: string,
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
      for (const message of result.errors) {
        const field = message.startsWith('redirectUrl')
          ? 'redirectUrl'
          : 'successMessage';
        const label =
          field === 'redirectUrl' ? 'Redirect address' : 'Thank-you message';
        errors.add(sentence(message.replace(field, label)), field);
      }
      return this.settingsPage(context, reply, formId, 400, {
        redirectUrl,
        successMessage,
        errors,
      });
    }
    await this.forms.patch(ownerPrincipal(context), formId, {
      redirectUrl: result.value.redirectUrl ?? null,
      successMessage: result.value.successMessage ?? null,
    });
    return redirectToForm(reply, formId, {
      page: 'settings',
      done: 'after-submit-saved',
      anchor: 'after-submit',
    });
  }

  @Post('settings/verification')
  async setVerification(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @Param('formId') formId: string,
    @Body() body: unknown,
  ) {
    const enabled = isChecked(body, 'domainVerification');
    await this.forms.patch(ownerPrincipal(context), formId, {
      domainVerification: enabled,
    });
    this.verification.invalidate(formId);
    return redirectToForm(reply, formId, {
      page: 'settings',
      done: enabled ? 'verification-on' : 'verification-off',
      anchor: 'domains',
    });
  }

  @Post('domains')
  async addDomain(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @Param('formId') formId: string,
    @Body() body: unknown,
  ) {
    const domain = textOf(body, 'domain').trim();
    const errors = new PageErrors();
    if (!domain) {
      errors.add('Enter a domain, e.g. example.com', 'domain');
    } else {
      try {
        await this.domains.add(await this.ownForm(context, formId), {
          domain,
        });
      } catch (error) {
        if (error instanceof ValidationFailedException) {
          error.errors.forEach((message) =>
            errors.add(sentence(message), 'domain'),
          );
        } else if (error instanceof ConflictException) {
          errors.add(error.message, 'domain');
        } else {
          throw error;
        }
      }
    }
    if (errors.any) {
      return this.settingsPage(context, reply, formId, 400, { domain, errors });
    }
    return redirectToForm(reply, formId, {
      page: 'settings',
      done: 'domain-added',
      anchor: 'domains',
    });
  }

  @Post('domains/:domain/verify')
  async verifyDomain(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @Param('formId') formId: string,
    @Param('domain') domain: string,
  ) {
    const result = await this.domains.verify(
      await this.ownForm(context, formId),
      domain,
    );
    const done =
      result.status === 'verified' && !result.lastError
        ? 'domain-verified'
        : 'domain-not-verified';
    return redirectToForm(reply, formId, {
      page: 'settings',
      done,
      anchor: 'domains',
    });
  }

  @Post('domains/:domain/delete')
  async removeDomain(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @Param('formId') formId: string,
    @Param('domain') domain: string,
  ) {
    await this.domains.remove(await this.ownForm(context, formId), domain);
    return redirectToForm(reply, formId, {
      page: 'settings',
      done: 'domain-removed',
      anchor: 'domains',
    });
  }

  @Get('regenerate-key')
  async confirmRegenerate(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @Param('formId') formId: string,
  ) {
    const form = await this.forms.get(ownerPrincipal(context), formId);
    return reply.view('form-regenerate', { form });
  }

  /** Regenerate (the old key refused at once) or, with `overlap=24h`, rotate. */
  @Post('regenerate-key')
  async regenerate(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @Param('formId') formId: string,
    @Body() body: unknown,
  ) {
    const overlap = textOf(body, 'overlap') === '24h';
    await this.forms.regenerateKey(
      ownerPrincipal(context),
      formId,
      overlap ? ROTATION_OVERLAP_SECONDS : 0,
    );
    return redirectToForm(reply, formId, {
      done: overlap ? 'key-rotated' : 'key-regenerated',
    });
  }

  @Get('delete')
  async confirmDelete(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @Param('formId') formId: string,
  ) {
    return this.deletePage(context, reply, formId, 200, {});
  }

  @Post('delete')
  async remove(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @Param('formId') formId: string,
    @Body() body: unknown,
  ) {
    const principal = ownerPrincipal(context);
    const form = await this.forms.get(principal, formId);
    const confirmName = textOf(body, 'confirmName');
    if (confirmName.trim() !== form.name.trim()) {
      const errors = new PageErrors().add(
        `Type the form name exactly as shown (${form.name}) to delete it`,
        'confirmName',
      );
      return this.deletePage(context, reply, formId, 400, {
        confirmName,
        errors,
      });
    }
    await this.forms.remove(principal, formId);
    return reply.redirect('/dashboard/forms?done=deleted', 303);
  }

  private async deletePage(
    context: DashboardContext,
    reply: FastifyReply,
    formId: string,
    status: number,
    state: DeletePageState,
  ) {
    const data = await this.pages.deletion(context, formId, state);
    return reply.status(status).view('form-delete', data);
  }

  private ownForm(context: DashboardContext, formId: string): Promise<Form> {
    return this.forms.findAccessible(ownerPrincipal(context), formId);
  }

  private async settingsPage(
    context: DashboardContext,
    reply: FastifyReply,
    formId: string,
    status: number,
    state: SettingsPageState,
  ) {
    const data = await this.pages.settings(context, formId, state);
    return reply.status(status).view('form-settings', data);
  }
}
