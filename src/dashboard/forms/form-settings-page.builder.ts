// The data of a form's settings page (form-settings.eta: name and fields, after-submit,
// retention, domains) and of its delete confirmation (form-delete.eta), with what was typed when a
// post is shown again with its errors.
import { Injectable } from '@nestjs/common';
import { DomainVerificationService } from '../../domain-verification/domain-verification.service.js';
import { DomainsService } from '../../domain-verification/domains.service.js';
import type { DomainResponseDto } from '../../domain-verification/dto/domain-response.dto.js';
import type { FormResponseDto } from '../../forms/dto/form-response.dto.js';
import type { Form } from '../../forms/form.entity.js';
import { FormsService } from '../../forms/forms.service.js';
import { SubmissionsService } from '../../submissions/submissions.service.js';
import type { PageErrors } from '../page-errors.js';
import { rowsFromFields } from './form-editor.js';
import type { SectionNotice } from './section-notice.js';
import { editorView, type EditorView } from './form-editor-post.js';
import {
  PROVIDER_CHOICES,
  spamSettingsView,
  type SpamSettingsView,
} from './spam-settings.js';

/** The notice after a redirect back to the settings page (`?done=`), in its section. */
export const SETTINGS_NOTICES: Record<string, SectionNotice> = {
  saved: {
    section: 'general',
    text: 'Changes saved. New submissions are validated against these fields.',
  },
  'verification-on': {
    section: 'domains',
    text: 'Domain verification is on: only verified domains (and development hosts) can submit.',
  },
  'verification-off': {
    section: 'domains',
    text: 'Domain verification is off: any site can submit.',
  },
  'domain-added': {
    section: 'domains',
    text: 'Domain added. Publish its TXT record, then select Verify.',
  },
  'domain-removed': { section: 'domains', text: 'Domain removed.' },
  'domain-verified': {
    section: 'domains',
    text: 'Domain verified: its sites can now submit.',
  },
  'domain-not-verified': {
    section: 'domains',
    text: 'The TXT record was not found yet. DNS changes can take a while to spread; try again in a few minutes.',
  },
  'after-submit-saved': {
    section: 'after-submit',
    text: 'Saved. Visitors who post the form from your site now see this after sending it.',
  },
  'retention-saved': {
    section: 'retention',
    text: 'Retention saved. Submissions older than that are deleted within a few minutes, and from then on as they reach it.',
  },
  'autoresponse-saved': {
    section: 'autoresponse',
    text: 'Autoresponse saved.',
  },
  'retention-off': {
    section: 'retention',
    text: 'Submissions of this form are now kept until you delete them.',
  },
  'spam-saved': {
    section: 'spam',
    text: 'Spam protection saved. New submissions are checked with these settings.',
  },
  'grace-ended': {
    section: 'spam',
    text: 'Grace period ended: posts without a CAPTCHA answer are refused from now on.',
  },
};

/** The sections of the settings page, in order, for its menu (their anchors and titles). */
export const SETTINGS_SECTIONS = [
  { id: 'general', title: 'Name and fields' },
  { id: 'after-submit', title: 'After sending' },
  { id: 'retention', title: 'Retention' },
  { id: 'spam', title: 'Spam protection' },
  { id: 'autoresponse', title: 'Autoresponse' },
  { id: 'domains', title: 'Domains' },
  { id: 'api-key', title: 'Key and deletion' },
] as const;

/** What a refused post typed, shown again instead of the stored values. */
export interface SettingsPageState {
  /** The name and fields as the editor was posted. */
  editor?: EditorView;
  redirectUrl?: string;
  successMessage?: string;
  /** The "Keep submissions for" days as typed. */
  retentionDays?: string;
  domain?: string;
  /** The "Spam protection" section as typed. */
  spam?: SpamSettingsView;
  errors?: PageErrors;
  notice?: SectionNotice;
}

export interface DeletePageState {
  confirmName?: string;
  errors?: PageErrors;
}

/** form-settings.eta (with the fields editor and spam-settings partials). */
export interface SettingsPageView extends EditorView {
  form: FormResponseDto;
  domains: DomainResponseDto[];
  warning: string | null;
  domain?: string;
  redirectUrl: string;
  successMessage: string;
  /** The retention box: as typed, else the stored days ('' for "keep forever"). */
  retentionDays: string;
  spam: SpamSettingsView;
  providerChoices: typeof PROVIDER_CHOICES;
  sections: typeof SETTINGS_SECTIONS;
  /** Shown in its section (the layout's own notice stays unset). */
  sectionNotice?: SectionNotice;
}

/** form-delete.eta. */
export interface DeletePageView extends DeletePageState {
  form: FormResponseDto;
  /** The form's submissions, deleted with it. */
  total: number;
}

@Injectable()
export class FormSettingsPageBuilder {
  constructor(
    private readonly forms: FormsService,
    private readonly domains: DomainsService,
    private readonly verification: DomainVerificationService,
    private readonly submissions: SubmissionsService,
  ) {}

  async settings(
    entity: Form,
    state: SettingsPageState,
  ): Promise<SettingsPageView> {
    const form = this.forms.toResponse(entity);
    const [domains, warning] = await Promise.all([
      this.domains.list(entity),
      this.verification.warningFor(entity),
    ]);
    const editor =
      state.editor ?? editorView(form.name, rowsFromFields(form.fields));
    return {
      ...editor,
      form,
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
      errors: state.errors ?? editor.errors,
      sections: SETTINGS_SECTIONS,
      sectionNotice: state.notice,
    };
  }

  /** The delete confirmation says how many submissions go with the form. */
  async deletion(
    entity: Form,
    state: DeletePageState,
  ): Promise<DeletePageView> {
    const form = await this.forms.describe(entity);
    const stats = await this.submissions.countByForms([form.id]);
    return {
      form,
      total: stats.get(form.id)?.count ?? 0,
      ...state,
    };
  }
}
