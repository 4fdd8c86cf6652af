// A form's CAPTCHA as written through the API, turned into its columns: the settings,
// and the provider's secret encrypted like the form's key. The secret is write-only; a
// change that leaves it out keeps the stored one when the provider stays the same.
// Switching a CAPTCHA on for an existing form starts its grace (docs/spam.md): for
// CAPTCHA_GRACE_DAYS a post with no answer at all is kept as spam instead of refused, so
// pages already deployed without the widget lose nothing. `graceUntil: null` ends it.
import {
  ValidationFailedException,
  type ErrorIssue,
} from '../../common/errors/errors.js';
import type { SecretBoxService } from '../../auth/secret-box.service.js';
import {
  CAPTCHA_GRACE_DAYS,
  THIRD_PARTY_PROVIDERS,
  runningGrace,
  storedCaptcha,
  type CaptchaProvider,
  type CaptchaSettings,
} from '../settings/spam-settings.js';

export interface CaptchaInput {
  provider: CaptchaProvider;
  siteKey?: string;
  secret?: string;
  minScore?: number;
  /** Only null: ends the grace (or switches the CAPTCHA on without one). */
  graceUntil?: null;
  /** reCAPTCHA v3: the expected action. */
  action?: string;
}

export interface CaptchaColumns {
  captcha: CaptchaSettings | null;
  /** undefined: keep the stored secret. */
  captchaSecretEncrypted?: string | null;
}

/**
 * The columns for `input` (null clears the CAPTCHA), given the form's current one; `current`
 * is undefined for a form being created (nothing deployed yet: no grace).
 */
export function captchaColumns(
  input: CaptchaInput | null,
  current: unknown,
  secretBox: SecretBoxService,
  now = new Date(),
): CaptchaColumns {
  if (input === null) return { captcha: null, captchaSecretEncrypted: null };
  const errors: string[] = [];
  const issues: ErrorIssue[] = [];
  const refuse = (key: keyof CaptchaInput, detail: string): void => {
    errors.push(`captcha.${key} ${detail}`);
    issues.push({ field: `captcha.${key}`, detail });
  };
  const thirdParty = THIRD_PARTY_PROVIDERS.has(input.provider);
  if (!thirdParty) {
    for (const key of ['siteKey', 'secret'] as const) {
      if (input[key] !== undefined) {
        refuse(key, 'is not used by altcha: leave it out');
      }
    }
  }
  for (const key of ['minScore', 'action'] as const) {
    if (input[key] !== undefined && input.provider !== 'recaptcha') {
      refuse(key, 'is only used by recaptcha');
    }
  }
  const stored = storedCaptcha(current);
  const sameProvider = stored?.provider === input.provider;
  if (thirdParty && input.secret === undefined && !sameProvider) {
    refuse(
      'secret',
      `is required for ${input.provider}: the secret key the provider gave you`,
    );
  }
  if (errors.length > 0) throw new ValidationFailedException(errors, issues);
  const captcha: CaptchaSettings = {
    provider: input.provider,
    siteKey: input.siteKey ?? null,
    minScore: input.minScore ?? null,
    graceUntil: graceOf(input, current, stored, now),
    ...(input.action !== undefined ? { action: input.action } : {}),
  };
  if (!thirdParty) return { captcha, captchaSecretEncrypted: null };
  return input.secret === undefined
    ? { captcha }
    : {
        captcha,
        captchaSecretEncrypted: secretBox.encrypt(input.secret),
      };
}

/** The grace the written CAPTCHA keeps, starts or ends (ISO), or null for none. */
function graceOf(
  input: CaptchaInput,
  current: unknown,
  stored: CaptchaSettings | null,
  now: Date,
): string | null {
  if (input.graceUntil === null) return null;
  // Changing a CAPTCHA that is already on keeps its grace as it was: never extended.
  if (stored !== null) {
    return runningGrace(stored, now.getTime())?.toISOString() ?? null;
  }
  if (current === undefined) return null;
  return new Date(
    now.getTime() + CAPTCHA_GRACE_DAYS * 24 * 3600_000,
  ).toISOString();
}

/** What `Form.captcha` shows (a grace that has run out shows as null). */
export function captchaResponse(
  stored: unknown,
  now = Date.now(),
): {
  provider: CaptchaProvider;
  siteKey: string | null;
  minScore: number | null;
  action?: string;
  secretSet: boolean;
  graceUntil: string | null;
} | null {
  const captcha = storedCaptcha(stored);
  if (captcha === null) return null;
  return {
    provider: captcha.provider,
    siteKey: captcha.siteKey,
    minScore: captcha.minScore,
    ...(captcha.action !== undefined ? { action: captcha.action } : {}),
    secretSet: THIRD_PARTY_PROVIDERS.has(captcha.provider),
    graceUntil: runningGrace(captcha, now)?.toISOString() ?? null,
  };
}
