// What the API shows of a form: the one place a row becomes a Form answer, so a new
// column never leaks by accident.
import { captchaResponse } from '../input/captcha-input.js';
import { storedAutoresponse } from '../settings/autoresponse-settings.js';
import type { FormResponseDto } from '../dto/form-response.dto.js';
import type { Form } from '../form.entity.js';
import { storedAddresses } from '../settings/notify-emails.js';
import { previousKeyOf } from '../keys/previous-key.js';
import { storedSpamFilter } from '../settings/spam-settings.js';
import { storedFields, toStoredField } from '../settings/stored-fields.js';

/** `confirmed`: the account's confirmed addresses among the form's (all pending without). */
export function formResponse(
  form: Form,
  confirmed: ReadonlySet<string>,
  sendErrors: ReadonlyMap<string, string>,
): FormResponseDto {
  const notifyEmails = storedAddresses(form.notifyEmails);
  return {
    id: form.id,
    name: form.name,
    fields: storedFields(form.fields).map(toStoredField),
    domainVerification: Boolean(form.domainVerification),
    redirectUrl: form.redirectUrl ?? null,
    successMessage: form.successMessage ?? null,
    retentionDays: form.retentionDays ?? null,
    notifyEmails,
    notifyEmailStatus: Object.fromEntries(
      notifyEmails.map((address) => [
        address,
        confirmed.has(address) ? 'confirmed' : 'pending',
      ]),
    ),
    captcha: captchaResponse(form.captcha),
    autoresponse: storedAutoresponse(form.autoresponse),
    spamFilter: storedSpamFilter(form.spamFilter),
    notifyEmailErrors: Object.fromEntries(
      notifyEmails
        .filter((address) => sendErrors.has(address))
        .map((address) => [address, sendErrors.get(address)!]),
    ),
    apiKeyPrefix: form.apiKeyPrefix,
    apiKeyLastUsedAt: form.apiKeyLastUsedAt?.toISOString() ?? null,
    ...(form.apiKeyExpiresAt
      ? { apiKeyExpiresAt: form.apiKeyExpiresAt.toISOString() }
      : {}),
    previousApiKey: previousKeyOf(form),
    createdAt: form.createdAt.toISOString(),
    updatedAt: form.updatedAt.toISOString(),
  };
}
