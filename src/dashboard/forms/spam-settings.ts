// A form's "Spam protection" settings as the dashboard edits them: the CAPTCHA and the
// content rules, read from the posted settings form and turned into the API's input, and
// the view model of the settings section.
import type { FormResponseDto } from '../../forms/dto/form-response.dto.js';
import { CAPTCHA_PROVIDERS } from '../../forms/settings/spam-settings.js';
import { isChecked, textOf } from '../form-body.js';
import type { ErrorIssue } from '../../common/errors/errors.js';
import { ownEntry } from '../../common/values/own-entry.js';
import { PageErrors, sentence } from '../page-errors.js';

/** What the section shows: the stored settings, or what a refused post typed. */
export interface SpamSettingsView {
  provider: string;
  siteKey: string;
  minScore: string;
  /** reCAPTCHA v3's expected action; empty for any. */
  action: string;
  secretSet: boolean;
  enabled: boolean;
  maxLinks: string;
  blockedWords: string;
  duplicates: boolean;
}

export const PROVIDER_CHOICES = [
  { value: '', label: 'None (the honeypot only)' },
  {
    value: 'altcha',
    label: 'ALTCHA — proof of work, no third party (suggested)',
  },
  { value: 'turnstile', label: 'Cloudflare Turnstile' },
  { value: 'hcaptcha', label: 'hCaptcha' },
  { value: 'recaptcha', label: 'Google reCAPTCHA (v2 or v3)' },
];

export function spamSettingsView(form: FormResponseDto): SpamSettingsView {
  return {
    provider: form.captcha?.provider ?? '',
    siteKey: form.captcha?.siteKey ?? '',
    minScore:
      form.captcha?.minScore === null || form.captcha?.minScore === undefined
        ? ''
        : String(form.captcha.minScore),
    action: form.captcha?.action ?? '',
    secretSet: form.captcha?.secretSet ?? false,
    enabled: form.spamFilter.enabled,
    maxLinks: String(form.spamFilter.maxLinks),
    blockedWords: form.spamFilter.blockedWords.join('\n'),
    duplicates: form.spamFilter.duplicates,
  };
}

/** The posted section, as typed (shown again when refused). */
export function spamSettingsFromBody(
  body: unknown,
  secretSet: boolean,
): SpamSettingsView {
  return {
    provider: textOf(body, 'captchaProvider'),
    siteKey: textOf(body, 'captchaSiteKey').trim(),
    minScore: textOf(body, 'captchaMinScore').trim(),
    action: textOf(body, 'captchaAction').trim(),
    secretSet,
    enabled: isChecked(body, 'spamFilterEnabled'),
    maxLinks: textOf(body, 'maxLinks').trim(),
    blockedWords: textOf(body, 'blockedWords'),
    duplicates: isChecked(body, 'duplicates'),
  };
}

/** The PATCH body of the API for the posted section (the secret only when typed). */
export function spamSettingsInput(
  view: SpamSettingsView,
  secret: string,
): Record<string, unknown> {
  let captcha: Record<string, unknown> | null = null;
  if (view.provider !== '') {
    captcha = { provider: view.provider };
    const thirdParty = view.provider !== 'altcha';
    if (thirdParty && view.siteKey) captcha.siteKey = view.siteKey;
    if (thirdParty && secret.trim()) captcha.secret = secret.trim();
    if (view.provider === 'recaptcha' && view.minScore) {
      captcha.minScore = Number(view.minScore);
    }
    if (view.provider === 'recaptcha' && view.action) {
      captcha.action = view.action;
    }
  }
  const maxLinks = /^-?\d+$/.test(view.maxLinks)
    ? Number(view.maxLinks)
    : view.maxLinks;
  return {
    captcha,
    spamFilter: {
      enabled: view.enabled,
      maxLinks,
      blockedWords: view.blockedWords
        .split('\n')
        .map((word) => word.trim())
        .filter(Boolean),
      duplicates: view.duplicates,
    },
  };
}

/** The section's input and its name, by the property of the API's body. */
const INPUT_OF: Readonly<Record<string, readonly [string, string]>> = {
  'captcha.provider': ['captchaProvider', 'CAPTCHA'],
  'captcha.siteKey': ['captchaSiteKey', 'Site key'],
  'captcha.secret': ['captchaSecret', 'Secret key'],
  'captcha.minScore': ['captchaMinScore', 'Lowest score'],
  'captcha.action': ['captchaAction', 'Expected action'],
  'spamFilter.maxLinks': ['maxLinks', 'Most links'],
  'spamFilter.blockedWords': ['blockedWords', 'Blocked words'],
};

/** The API's messages, worded for the section and placed beside its inputs. */
export function spamSettingsErrors(
  messages: readonly string[],
  issues: readonly ErrorIssue[] | undefined,
): PageErrors {
  const errors = new PageErrors();
  messages.forEach((message, index) => {
    const issue = issues?.[index];
    const place = ownEntry(INPUT_OF, issue?.field);
    if (place === undefined || issue?.detail === undefined) {
      errors.add(sentence(message));
      return;
    }
    const [input, label] = place;
    const subject =
      issue.entries === true && input === 'blockedWords'
        ? 'Each blocked word'
        : label;
    errors.add(`${subject} ${issue.detail}`, input);
  });
  return errors;
}

export const KNOWN_PROVIDERS: readonly string[] = ['', ...CAPTCHA_PROVIDERS];
