// A form's CAPTCHA as written through the API, turned into its columns: the settings,
// and the provider's secret encrypted like the form's key. The secret is write-only; a
// change that leaves it out keeps the stored one when the provider stays the same.
import {
  ValidationFailedException,
  type ErrorIssue,
} from '../common/errors.js';
import type { SecretBox } from '../auth/secret-box.js';
import {
  THIRD_PARTY_PROVIDERS,
  storedCaptcha,
  type CaptchaProvider,
  type CaptchaSettings,
} from './spam-settings.js';

export interface CaptchaInput {
  provider: CaptchaProvider;
  siteKey?: string;
  secret?: string;
  minScore?: number;
  /** reCAPTCHA v3: the expected action. */
  action?: string;
}

export interface CaptchaColumns {
  captcha: CaptchaSettings | null;
  /** undefined: keep the stored secret. */
  captchaSecretEncrypted?: string | null;
}

/** The columns for `input` (null clears the CAPTCHA), given the form's current one. */
export function captchaColumns(
  input: CaptchaInput | null,
  current: unknown,
  secretBox: SecretBox,
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
  const sameProvider = storedCaptcha(current)?.provider === input.provider;
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

/** What `Form.captcha` shows. */
export function captchaResponse(stored: unknown): {
  provider: CaptchaProvider;
  siteKey: string | null;
  minScore: number | null;
  action?: string;
  secretSet: boolean;
} | null {
  const captcha = storedCaptcha(stored);
  if (captcha === null) return null;
  return {
    ...captcha,
    secretSet: THIRD_PARTY_PROVIDERS.has(captcha.provider),
  };
}
