// Server-side verification of the third-party CAPTCHAs (Turnstile, hCaptcha, reCAPTCHA):
// the form's secret, the visitor's token and IP are posted to the provider's verify
// endpoint (*_VERIFY_URL), which answers `{success, "error-codes", score?, hostname?,
// action?}` (the site the token was solved on; reCAPTCHA v3's action). A provider
// that does not answer in VERIFY_TIMEOUT_MS, or answers anything but a 2xx with that
// JSON, is "unavailable": the submission is then kept as spam rather than lost.
import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import {
  DEFAULT_MIN_SCORE,
  type CaptchaProvider,
} from '../forms/settings/spam-settings.js';

export const VERIFY_TIMEOUT_MS = 5_000;
/** Longest token looked at (Turnstile's are at most 2,048 characters). */
export const MAX_TOKEN_LENGTH = 4096;
/** Longest answer body read from a provider. */
const MAX_ANSWER_BYTES = 65_536;

export type ThirdPartyProvider = Exclude<CaptchaProvider, 'altcha'>;

export const PROVIDER_NAMES: Readonly<Record<CaptchaProvider, string>> = {
  altcha: 'ALTCHA',
  turnstile: 'Turnstile',
  hcaptcha: 'hCaptcha',
  recaptcha: 'reCAPTCHA',
};

export interface ProviderSettings {
  provider: ThirdPartyProvider;
  secret: string;
  siteKey: string | null;
  minScore: number | null;
}

export type ProviderVerdict =
  | {
      outcome: 'passed';
      /** The site the token was solved on, as the provider says. */
      hostname?: string;
      /** reCAPTCHA v3: the action the token was made for. */
      action?: string;
    }
  | { outcome: 'refused'; reason: 'invalid' | 'expired' | 'low-score' }
  | { outcome: 'unavailable' };

interface ProviderAnswer {
  success?: unknown;
  'error-codes'?: unknown;
  score?: unknown;
  hostname?: unknown;
  action?: unknown;
}

@Injectable()
export class CaptchaProviderClient {
  constructor(private readonly config: AppConfig) {}

  private urlOf(provider: ThirdPartyProvider): string {
    const spam = this.config.spam;
    if (provider === 'turnstile') return spam.turnstileVerifyUrl;
    if (provider === 'hcaptcha') return spam.hcaptchaVerifyUrl;
    return spam.recaptchaVerifyUrl;
  }

  async verify(
    settings: ProviderSettings,
    token: string,
    ip: string | null,
  ): Promise<ProviderVerdict> {
    const form = new URLSearchParams({
      secret: settings.secret,
      response: token,
    });
    if (ip !== null) form.set('remoteip', ip);
    if (settings.provider === 'hcaptcha' && settings.siteKey !== null) {
      form.set('sitekey', settings.siteKey);
    }
    let answer: ProviderAnswer;
    try {
      const response = await fetch(this.urlOf(settings.provider), {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: form.toString(),
        redirect: 'error',
        signal: AbortSignal.timeout(VERIFY_TIMEOUT_MS),
      });
      if (!response.ok) {
        await response.body?.cancel();
        return { outcome: 'unavailable' };
      }
      const text = await response.text();
      if (text.length > MAX_ANSWER_BYTES) return { outcome: 'unavailable' };
      answer = JSON.parse(text) as ProviderAnswer;
    } catch {
      // Timeout, refused connection, DNS failure, a body that is not JSON.
      return { outcome: 'unavailable' };
    }
    if (typeof answer !== 'object' || answer === null) {
      return { outcome: 'unavailable' };
    }
    if (answer.success !== true) {
      const codes = Array.isArray(answer['error-codes'])
        ? answer['error-codes']
        : [];
      return {
        outcome: 'refused',
        reason: codes.includes('timeout-or-duplicate') ? 'expired' : 'invalid',
      };
    }
    if (settings.provider === 'recaptcha' && typeof answer.score === 'number') {
      const minScore = settings.minScore ?? DEFAULT_MIN_SCORE;
      if (answer.score < minScore) {
        return { outcome: 'refused', reason: 'low-score' };
      }
    }
    return {
      outcome: 'passed',
      ...(typeof answer.hostname === 'string'
        ? { hostname: answer.hostname }
        : {}),
      ...(typeof answer.action === 'string' ? { action: answer.action } : {}),
    };
  }
}
