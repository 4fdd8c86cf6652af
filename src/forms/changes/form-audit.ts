// What the audit log records of a change to a form (docs/audit.md): one event per change,
// its action named for what changed — a change of one group of settings alone (the
// recipients, the spam filter, the CAPTCHA, the retention) is that group's action, anything
// else `form.updated` — and its details the properties before → after, the CAPTCHA's secret
// only as "changed".
import type { AuditAction } from '../../audit/audit-actions.js';
import { changesOf } from '../../audit/audit-details.js';
import type { AuditDetails } from '../../audit/audit-hash.js';
import type { Form } from '../form.entity.js';
import type { FormChanges } from '../form.repository.js';

const AUDITED = [
  'name',
  'fields',
  'domainVerification',
  'redirectUrl',
  'successMessage',
  'retentionDays',
  'notifyEmails',
  'spamFilter',
  'captcha',
  'captchaSecretEncrypted',
  'autoresponse',
] as const satisfies ReadonlyArray<keyof Form>;

const GROUP_ACTIONS: Readonly<Record<string, AuditAction>> = {
  notifyEmails: 'recipients.updated',
  spamFilter: 'spam.updated',
  captcha: 'captcha.updated',
  captchaSecretEncrypted: 'captcha.updated',
  retentionDays: 'retention.updated',
  autoresponse: 'autoresponder.updated',
};

export interface FormEvent {
  action: AuditAction;
  details: AuditDetails;
}

/** The event of writing `changes` over `before`; undefined details keys when nothing changed. */
export function formChangeEvent(before: Form, changes: FormChanges): FormEvent {
  const raw = changesOf<Form>(before, changes as Partial<Form>, AUDITED, [
    'captchaSecretEncrypted',
  ]);
  const details: AuditDetails = { ...raw };
  if ('captchaSecretEncrypted' in details) {
    delete details.captchaSecretEncrypted;
    details.captchaSecret = 'changed';
  }
  const actions = new Set(
    Object.keys(raw).map((key) => GROUP_ACTIONS[key] ?? 'form.updated'),
  );
  const [only] = actions;
  return {
    action: actions.size === 1 && only ? only : 'form.updated',
    details,
  };
}

/** The details of a form created: what it was created with (no key, no secret). */
export function formCreatedDetails(form: Form): AuditDetails {
  return {
    name: form.name,
    fields: (form.fields ?? []).map((field) => field.id),
    domainVerification: Boolean(form.domainVerification),
    retentionDays: form.retentionDays ?? null,
    notifyEmails: form.notifyEmails ?? [],
    captcha: form.captcha ? 'on' : 'off',
    autoresponse: form.autoresponse?.enabled ? 'on' : 'off',
  };
}
