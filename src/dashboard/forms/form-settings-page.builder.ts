// The data of a form's settings page (form-settings.eta: name and fields, after-submit,
// retention, domains) and of its delete confirmation (form-delete.eta), with what was typed when a
// post is shown again with its errors.
import { Injectable } from '@nestjs/common';
import { DomainVerificationService } from '../../domain-verification/domain-verification.service.js';
import { DomainsService } from '../../domain-verification/domains.service.js';
import { FIELD_TYPES } from '../../forms/form.entity.js';
import { FormsService } from '../../forms/forms.service.js';
import { SubmissionsService } from '../../submissions/submissions.service.js';
import { ownerPrincipal, type DashboardContext } from '../dashboard-context.js';
import type { PageErrors } from '../page-errors.js';
import { rowsFromFields, type EditorRow } from './form-editor.js';
import {
  PROVIDER_CHOICES,
  spamSettingsView,
  type SpamSettingsView,
} from './spam-settings.js';

/** The notice after a redirect back to the settings page (`?done=`). */
export const SETTINGS_NOTICES: Record<string, string> = {
  saved: 'Changes saved. New submissions are validated against these fields.',
  'verification-on':
    'Domain verification is on: only verified domains (and development hosts) can submit.',
  'verification-off': 'Domain verification is off: any site can submit.',
  'domain-added': 'Domain added. Publish its TXT record, then select Verify.',
  'domain-removed': 'Domain removed.',
  'domain-verified': 'Domain verified: its sites can now submit.',
  'after-submit-saved':
    'Saved. Visitors who post the form from your site now see this after sending it.',
  'retention-saved':
    'Retention saved. Submissions older than that are deleted within a few minutes, and from then on as they reach it.',
  'retention-off':
    'Submissions of this form are now kept until you delete them.',
  'spam-saved':
    'Spam protection saved. New submissions are checked with these settings.',
  'domain-not-verified':
    'The TXT record was not found yet. DNS changes can take a while to spread; try again in a few minutes.',
};

/** What a refused post typed, shown again instead of the stored values. */
export interface SettingsPageState {
  name?: string;
  redirectUrl?: string;
  successMessage?: string;
  /** The "Keep submissions for" days as typed. */
  retentionDays?: string;
  rows?: EditorRow[];
  domain?: string;
  /** The "Spam protection" section as typed. */
  spam?: SpamSettingsView;
  errors?: PageErrors;
  notice?: string;
}

export interface DeletePageState {
  confirmName?: string;
  errors?: PageErrors;
}

@Injectable()
export class FormSettingsPageBuilder {
  constructor(
    private readonly forms: FormsService,
    private readonly domains: DomainsService,
    private readonly verification: DomainVerificationService,
    private readonly submissions: SubmissionsService,
  ) {}

  /** 404 (thrown) when the owner has no such form. */
  async settings(
    context: DashboardContext,
    formId: string,
    state: SettingsPageState,
  ): Promise<Record<string, unknown>> {
    const principal = ownerPrincipal(context);
    const entity = await this.forms.findAccessible(principal, formId);
    const form = this.forms.toResponse(entity);
    const [domains, warning] = await Promise.all([
      this.domains.list(entity),
      this.verification.warningFor(entity),
    ]);
    return {
      form,
      name: state.name ?? form.name,
      rows: state.rows ?? rowsFromFields(form.fields),
      fieldTypes: FIELD_TYPES,
      domains: domains.data,
      warning,
      domain: state.domain,
      redirectUrl: state.redirectUrl ?? form.redirectUrl ?? '',
      successMessage: state.successMessage ?? form.successMessage ?? '',
      retentionDays:
        state.retentionDays ??
        (form.retentionDays === null ? '' : String(form.retentionDays)),
      spam: state.spam ?? spamSettingsView(form),
      providerChoices: PROVIDER_CHOICES,
      errors: state.errors,
      notice: state.notice,
    };
  }

  /** The delete confirmation says how many submissions go with the form. */
  async deletion(
    context: DashboardContext,
    formId: string,
    state: DeletePageState,
  ): Promise<Record<string, unknown>> {
    const form = await this.forms.get(ownerPrincipal(context), formId);
    const stats = await this.submissions.countByForms([form.id]);
    return {
      form,
      total: stats.get(form.id)?.count ?? 0,
      ...state,
    };
  }
}
