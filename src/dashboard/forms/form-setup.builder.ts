// The data of a form's Setup tab (form-setup.eta): how to connect a site — the form id, the
// endpoint, the key for members who manage keys — and the ready-to-paste snippets. A form
// with no submissions yet shows the same on its inbox, so a newcomer finds it at once.
import { Injectable } from '@nestjs/common';
import { roleHas } from '../../auth/permissions.js';
import type { FormResponseDto } from '../../forms/dto/form-response.dto.js';
import type { Form } from '../../forms/form.entity.js';
import { FormsService } from '../../forms/forms.service.js';
import { DomainVerificationService } from '../../domain-verification/domain-verification.service.js';
import type { DashboardContext } from '../dashboard-context.js';
import {
  fetchSnippet,
  formspreeSnippet,
  htmlSnippet,
  type SnippetCaptcha,
} from './snippets.js';

/** partials/form-connect.eta and partials/form-snippets.eta. */
export interface SetupView {
  form: FormResponseDto;
  /** The form's key, for members who may manage keys; null for the others. */
  apiKey: string | null;
  submitUrl: string;
  htmlSnippet: string;
  htmlRows: number;
  fetchSnippet: string;
  fetchRows: number;
  formspreeUrl: string;
  formspreeSnippet: string;
  formspreeRows: number;
  /** The form has a `file` field: it is posted as multipart/form-data. */
  takesFiles: boolean;
  /** Open the key after a regeneration or a rotation. */
  revealKey: boolean;
}

/** form-setup.eta: the Setup tab. */
export interface SetupPageView extends SetupView {
  warning: string | null;
  notice: string | undefined;
}

function lineCount(text: string): number {
  return Math.min(28, text.split('\n').length + 1);
}

@Injectable()
export class FormSetupBuilder {
  constructor(
    private readonly forms: FormsService,
    private readonly verification: DomainVerificationService,
  ) {}

  /** The Setup tab, with the form's warnings and the notice after a redirect. */
  async page(
    context: DashboardContext,
    baseUrl: string,
    entity: Form,
    done: string,
    notice: string | undefined,
  ): Promise<SetupPageView> {
    const [setup, warning] = await Promise.all([
      this.build(context, baseUrl, this.forms.toResponse(entity), done),
      this.verification.warningFor(entity),
    ]);
    return { ...setup, warning, notice };
  }

  async build(
    context: DashboardContext,
    baseUrl: string,
    form: FormResponseDto,
    done: string,
  ): Promise<SetupView> {
    // A key would give its holder a developer's reach: only for members who have it.
    const apiKey = roleHas(context.account.role, 'keys.manage')
      ? await this.forms.revealApiKey(context.account.id, form.id)
      : null;
    const submitUrl = `${baseUrl}/api/submit/${encodeURIComponent(form.id)}`;
    const captcha: SnippetCaptcha | null = form.captcha && {
      provider: form.captcha.provider,
      siteKey: form.captcha.siteKey,
      widgetUrl: `${baseUrl}/static/altcha/altcha.js`,
    };
    const html = htmlSnippet(submitUrl, form.fields, captcha);
    const js = fetchSnippet(submitUrl, form.fields, captcha);
    const formspree = formspreeSnippet(baseUrl, form.id);
    return {
      form,
      apiKey,
      submitUrl,
      htmlSnippet: html,
      htmlRows: lineCount(html),
      fetchSnippet: js,
      fetchRows: lineCount(js),
      formspreeUrl: `${baseUrl}/f/${encodeURIComponent(form.id)}`,
      formspreeSnippet: formspree,
      formspreeRows: lineCount(formspree),
      takesFiles: form.fields.some((field) => field.type === 'file'),
      revealKey: done === 'key-regenerated' || done === 'key-rotated',
    };
  }
}
