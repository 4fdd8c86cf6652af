// The autoresponse column a create, PUT or PATCH writes, checked against the form it leaves:
// the email field among its fields, a CAPTCHA on it, the reply-to among its confirmed
// recipients (autoresponse-settings.ts holds the rules).
import { autoresponseColumn } from '../settings/autoresponse-settings.js';
import type { FormInput } from './form-input.js';
import type { Form } from '../form.entity.js';
import type { FormChanges } from '../form.repository.js';
import { storedAddresses } from '../settings/notify-emails.js';
import { storedCaptcha } from '../settings/spam-settings.js';
import { storedFields } from '../settings/stored-fields.js';

export function autoresponseOfWrite(
  input: Pick<FormInput, 'autoresponse'>,
  form: Form | null,
  values: FormChanges | Form,
  confirmedAmong: (
    addresses: readonly string[],
  ) => Promise<ReadonlySet<string>>,
): ReturnType<typeof autoresponseColumn> {
  const pick = <K extends 'fields' | 'captcha' | 'notifyEmails'>(key: K) =>
    values[key] !== undefined ? values[key] : form?.[key];
  return autoresponseColumn(
    input.autoresponse,
    form?.autoresponse ?? null,
    {
      fields: storedFields(pick('fields') ?? []),
      hasCaptcha: storedCaptcha(pick('captcha') ?? null) !== null,
      notifyEmails: storedAddresses(pick('notifyEmails') ?? null),
    },
    confirmedAmong,
  );
}
