// A form's autoresponse (DESIGN 21): the owner's subject and text mailed back to the
// address a visitor gave in an email field. The rules that keep it from being a relay are
// checked here on every write, against what the form will be after it: on only with a
// CAPTCHA, the address field an email field, the Reply-To a confirmed recipient.
import { ValidationFailedException } from '../../common/errors/errors.js';
import type { FieldDefinition } from '../form.entity.js';

export const MAX_AUTORESPONSE_SUBJECT = 150;
export const MAX_AUTORESPONSE_TEXT = 5000;

export interface AutoresponseSettings {
  enabled: boolean;
  emailField: string;
  subject: string;
  text: string;
  replyTo: string | null;
}

export const AUTORESPONSE_NEEDS_CAPTCHA =
  'autoresponse can be enabled only on a form with a CAPTCHA: a visitor can type anyone’s address, and the CAPTCHA makes each mail cost a person’s effort. Set captcha first (altcha needs no third party)';

/** The stored column read back (MariaDB's JSON is text), or null. */
export function storedAutoresponse(
  value: unknown,
): AutoresponseSettings | null {
  let parsed: unknown = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      return null;
    }
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const a = parsed as Record<string, unknown>;
  return {
    enabled: a.enabled === true,
    emailField: typeof a.emailField === 'string' ? a.emailField : '',
    subject: typeof a.subject === 'string' ? a.subject : '',
    text: typeof a.text === 'string' ? a.text : '',
    replyTo: typeof a.replyTo === 'string' ? a.replyTo : null,
  };
}

/** The settings as stored, from what was written (the DTO has checked each property). */
export function toStoredAutoresponse(input: {
  enabled: boolean;
  emailField: string;
  subject: string;
  text: string;
  replyTo?: string | null;
}): AutoresponseSettings {
  return {
    enabled: input.enabled,
    emailField: input.emailField,
    subject: input.subject.trim(),
    text: input.text.replace(/\r\n?/g, '\n'),
    replyTo: input.replyTo ? input.replyTo.trim().toLowerCase() : null,
  };
}

/**
 * The problems of an autoresponse on a form with these fields and CAPTCHA, whose
 * confirmed recipients are `confirmed` (an empty list when none).
 */
export function autoresponseProblems(
  settings: AutoresponseSettings | null,
  form: {
    fields: readonly FieldDefinition[];
    hasCaptcha: boolean;
    confirmed: ReadonlySet<string>;
  },
): string[] {
  if (settings === null) return [];
  const problems: string[] = [];
  const field = form.fields.find((f) => f.id === settings.emailField);
  if (field === undefined || field.type !== 'email') {
    problems.push(
      `autoresponse.emailField must be the id of one of the form's email fields`,
    );
  }
  if (settings.replyTo !== null && !form.confirmed.has(settings.replyTo)) {
    problems.push(
      'autoresponse.replyTo must be one of the form’s notifyEmails that has confirmed',
    );
  }
  if (settings.enabled && !form.hasCaptcha) {
    problems.push(AUTORESPONSE_NEEDS_CAPTCHA);
  }
  return problems;
}

export function checkAutoresponse(
  ...args: Parameters<typeof autoresponseProblems>
): void {
  const problems = autoresponseProblems(...args);
  if (problems.length > 0) throw new ValidationFailedException(problems);
}

/**
 * The autoresponse column a write leaves (absent when it stays as stored), checked against
 * the form as the write leaves it. `written`: undefined when the write does not set it.
 * A write that removes the CAPTCHA or the email field an enabled autoresponse relies on
 * is refused too.
 */
export async function autoresponseColumn(
  written: Parameters<typeof toStoredAutoresponse>[0] | null | undefined,
  stored: unknown,
  form: {
    fields: readonly FieldDefinition[];
    hasCaptcha: boolean;
    notifyEmails: readonly string[];
  },
  confirmedAmong: (
    addresses: readonly string[],
  ) => Promise<ReadonlySet<string>>,
): Promise<{ autoresponse?: AutoresponseSettings | null }> {
  const settings =
    written === undefined
      ? storedAutoresponse(stored)
      : written === null
        ? null
        : toStoredAutoresponse(written);
  if (settings === null) {
    return written === undefined ? {} : { autoresponse: null };
  }
  const confirmed =
    settings.replyTo !== null && form.notifyEmails.includes(settings.replyTo)
      ? await confirmedAmong([settings.replyTo])
      : new Set<string>();
  checkAutoresponse(settings, { ...form, confirmed });
  return written === undefined ? {} : { autoresponse: settings };
}
