// The CAPTCHA step of a submission (after validation, before storing): the answer the
// form's widget added is checked — ALTCHA here, the others by their provider — and
// claimed as used, once. A missing, malformed, wrong, expired or used answer is a 400
// (`captcha: …`) and is counted as turned away; a provider that does not answer lets the
// submission through as spam (`captcha-unavailable`). A validation error comes before
// this step, so it never uses an answer up. While the form's CAPTCHA is in its grace
// (switched on less than CAPTCHA_GRACE_DAYS ago), a post with no answer at all is kept as
// spam (`captcha-missing`) instead: a page deployed before the switch loses nothing.
// A provider's token must also have been solved
// where the form is used: with domain verification on, on a verified domain of the form (or
// a subdomain, or a development host), and for reCAPTCHA v3 with the form's `action`.
import { Injectable } from '@nestjs/common';
import { ValidationFailedException } from '../common/errors/errors.js';
import {
  isDevelopmentHost,
  matchVerifiedDomain,
} from '../domain-verification/origin-policy.js';
import {
  CAPTCHA_TOKEN_FIELDS,
  type CaptchaProvider,
} from '../forms/settings/spam-settings.js';
import { AltchaService } from './altcha.service.js';
import {
  CaptchaProviderClient,
  MAX_TOKEN_LENGTH,
  PROVIDER_NAMES,
  type ThirdPartyProvider,
} from './captcha-provider-client.js';
import { TurnedAwayCounter } from './turned-away.js';
import { tokenId, UsedTokenStore } from './used-token.store.js';

/** How long a provider's token is remembered as used (theirs expire within 5 minutes). */
export const PROVIDER_TOKEN_TTL_MS = 10 * 60_000;

/** The CAPTCHA of a form as the submit path caches it (the secret decrypted). */
export interface SubmitCaptcha {
  provider: CaptchaProvider;
  siteKey: string | null;
  minScore: number | null;
  /** reCAPTCHA v3: the action a token must carry. */
  action?: string;
  /** The provider's secret; null for ALTCHA. */
  secret: string | null;
  /** The end of the grace (epoch ms), or null for none. */
  graceUntil: number | null;
}

export type CaptchaOutcome = 'passed' | 'unavailable' | 'missing';

type Problem =
  | 'missing'
  | 'malformed'
  | 'wrong'
  | 'expired'
  | 'used'
  | 'low-score'
  | 'other-site'
  | 'other-action';

function message(provider: CaptchaProvider, problem: Problem): string {
  const name = PROVIDER_NAMES[provider];
  const field = CAPTCHA_TOKEN_FIELDS[provider];
  const answer = provider === 'altcha' ? 'solution' : 'token';
  const again =
    provider === 'altcha' ? 'solve a new one' : 'solve the CAPTCHA again';
  switch (problem) {
    case 'missing':
      return `captcha: no ${name} ${answer} was sent (the "${field}" field is missing)`;
    case 'malformed':
      return `captcha: the ${name} ${answer} is malformed`;
    case 'wrong':
      return `captcha: the ${name} ${answer} is not valid: ${again}`;
    case 'expired':
      return provider === 'altcha'
        ? `captcha: the ALTCHA challenge has expired: ${again}`
        : `captcha: the ${name} ${answer} has expired or was already used: ${again}`;
    case 'used':
      return `captcha: this ${name} ${answer} was already used: ${again}`;
    case 'low-score':
      return `captcha: the ${name} score is too low`;
    case 'other-site':
      return `captcha: the ${name} ${answer} was solved on a site that is not a verified domain of this form: ${again}`;
    case 'other-action':
      return `captcha: the ${name} ${answer} was made for another action: ${again}`;
  }
}

/** The field's value as sent: a form post may carry it more than once (an array). */
function answerIn(body: unknown, field: string): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return undefined;
  }
  return Object.hasOwn(body, field)
    ? (body as Record<string, unknown>)[field]
    : undefined;
}

/**
 * Whether the site a provider says the token was solved on may use the form: any, when
 * the form has no domain verification (or the provider names none); else a verified
 * domain of the form or a subdomain of one, or a development host — the origin rule's.
 */
function solvedOnTheSite(
  hostname: string | undefined,
  verifiedDomains: ReadonlySet<string> | null,
): boolean {
  if (verifiedDomains === null || hostname === undefined) return true;
  return (
    isDevelopmentHost(hostname) ||
    matchVerifiedDomain(hostname, verifiedDomains) !== null
  );
}

@Injectable()
export class CaptchaChecker {
  constructor(
    private readonly altcha: AltchaService,
    private readonly providers: CaptchaProviderClient,
    private readonly used: UsedTokenStore,
    private readonly turnedAway: TurnedAwayCounter,
  ) {}

  /**
   * `verifiedDomains`: the form's, when it has domain verification on (else null, and
   * any site the provider names passes).
   */
  async check(
    formId: string,
    captcha: SubmitCaptcha,
    body: unknown,
    ip: string | null,
    verifiedDomains: ReadonlySet<string> | null = null,
  ): Promise<CaptchaOutcome> {
    const raw = answerIn(body, CAPTCHA_TOKEN_FIELDS[captcha.provider]);
    if (
      (raw === undefined || raw === null || raw === '') &&
      captcha.graceUntil !== null &&
      captcha.graceUntil > Date.now()
    ) {
      return 'missing';
    }
    const refuse = (problem: Problem): never => {
      this.turnedAway.count(formId, 'captcha');
      throw new ValidationFailedException([message(captcha.provider, problem)]);
    };
    if (captcha.provider === 'altcha') {
      const result = await this.altcha.check(formId, raw);
      if (!result.ok) return refuse(result.problem);
      if (!(await this.used.claim(result.id, result.expiresAt))) {
        return refuse('used');
      }
      return 'passed';
    }
    if (raw === undefined || raw === null || raw === '') refuse('missing');
    if (typeof raw !== 'string' || raw.length > MAX_TOKEN_LENGTH) {
      return refuse('malformed');
    }
    const verdict = await this.providers.verify(
      {
        provider: captcha.provider as ThirdPartyProvider,
        secret: captcha.secret ?? '',
        siteKey: captcha.siteKey,
        minScore: captcha.minScore,
      },
      raw,
      ip,
    );
    if (verdict.outcome === 'refused') {
      return refuse(
        verdict.reason === 'invalid'
          ? 'wrong'
          : verdict.reason === 'expired'
            ? 'expired'
            : 'low-score',
      );
    }
    if (verdict.outcome === 'passed') {
      if (!solvedOnTheSite(verdict.hostname, verifiedDomains)) {
        return refuse('other-site');
      }
      if (
        captcha.provider === 'recaptcha' &&
        captcha.action !== undefined &&
        verdict.action !== captcha.action
      ) {
        return refuse('other-action');
      }
    }
    // Accepted (or kept as spam while the provider is away): once per token either way.
    const claimed = await this.used.claim(
      tokenId(captcha.provider, raw),
      new Date(Date.now() + PROVIDER_TOKEN_TTL_MS),
    );
    if (!claimed) return refuse('used');
    return verdict.outcome;
  }
}
