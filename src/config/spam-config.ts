// Spam protection settings: ALTCHA challenges, the verify endpoints of the third-party
// CAPTCHA providers, and how long spam is kept. Checked at boot like every setting.
import { ConfigError } from './config-error.js';
import { read, wholeNumber, type Env } from './env-values.js';

export interface SpamConfig {
  /** Seconds an ALTCHA challenge may be solved and used in. */
  altchaMaxAgeSeconds: number;
  /**
   * PBKDF2-SHA-256 iterations per attempt of an ALTCHA challenge. A visitor's browser
   * makes about ALTCHA_COUNTER attempts (see spam/altcha.service.ts), so this scales the work.
   */
  altchaCost: number;
  turnstileVerifyUrl: string;
  hcaptchaVerifyUrl: string;
  recaptchaVerifyUrl: string;
  /** Days a submission stays in the spam folder before it is deleted. */
  spamRetentionDays: number;
}

/** Measured: about a second of a phone's work (docs/spam.md). */
export const DEFAULT_ALTCHA_COST = 1000;

export const DEFAULT_VERIFY_URLS = {
  turnstile: 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
  hcaptcha: 'https://api.hcaptcha.com/siteverify',
  recaptcha: 'https://www.google.com/recaptcha/api/siteverify',
} as const;

function verifyUrl(env: Env, name: string, fallback: string): string {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (
    !url ||
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    url.username ||
    url.password
  ) {
    throw new ConfigError(
      name,
      `must be an http:// or https:// URL without credentials, got "${raw}"`,
    );
  }
  return url.href;
}

export function parseSpamConfig(env: Env): SpamConfig {
  return {
    altchaMaxAgeSeconds: wholeNumber(
      env,
      'ALTCHA_MAX_AGE_SECONDS',
      600,
      10,
      86_400,
    ),
    altchaCost: wholeNumber(
      env,
      'ALTCHA_COST',
      DEFAULT_ALTCHA_COST,
      1,
      1_000_000,
    ),
    turnstileVerifyUrl: verifyUrl(
      env,
      'TURNSTILE_VERIFY_URL',
      DEFAULT_VERIFY_URLS.turnstile,
    ),
    hcaptchaVerifyUrl: verifyUrl(
      env,
      'HCAPTCHA_VERIFY_URL',
      DEFAULT_VERIFY_URLS.hcaptcha,
    ),
    recaptchaVerifyUrl: verifyUrl(
      env,
      'RECAPTCHA_VERIFY_URL',
      DEFAULT_VERIFY_URLS.recaptcha,
    ),
    spamRetentionDays: wholeNumber(env, 'SPAM_RETENTION_DAYS', 30, 1, 3650),
  };
}
