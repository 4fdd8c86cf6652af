// A form's spam settings as stored and shown: which CAPTCHA guards it (if any) and its
// content rules. The rules themselves run in spam/; this file only says what a form holds.

export const CAPTCHA_PROVIDERS = [
  'altcha',
  'turnstile',
  'hcaptcha',
  'recaptcha',
] as const;
export type CaptchaProvider = (typeof CAPTCHA_PROVIDERS)[number];

/** Providers verified by a third party with the form's secret. */
export const THIRD_PARTY_PROVIDERS: ReadonlySet<CaptchaProvider> = new Set([
  'turnstile',
  'hcaptcha',
  'recaptcha',
]);

/**
 * The field each provider's widget adds to the form. They are control fields: never
 * stored, never an unknown-key error, whatever the form's CAPTCHA.
 */
export const CAPTCHA_TOKEN_FIELDS: Readonly<Record<CaptchaProvider, string>> = {
  altcha: 'altcha',
  turnstile: 'cf-turnstile-response',
  hcaptcha: 'h-captcha-response',
  recaptcha: 'g-recaptcha-response',
};

export const CAPTCHA_TOKEN_FIELD_NAMES: ReadonlySet<string> = new Set(
  Object.values(CAPTCHA_TOKEN_FIELDS),
);

/** reCAPTCHA v3 scores below this fail unless the form sets its own `minScore`. */
export const DEFAULT_MIN_SCORE = 0.5;

/** The stored `captcha` column (the secret lives encrypted in a column of its own). */
export interface CaptchaSettings {
  provider: CaptchaProvider;
  siteKey: string | null;
  /** reCAPTCHA only; null: DEFAULT_MIN_SCORE. */
  minScore: number | null;
  /**
   * Until when (ISO 8601) a post with no CAPTCHA answer at all is kept as spam
   * (`captcha-missing`) instead of refused: pages deployed before the CAPTCHA was switched on
   * keep working for CAPTCHA_GRACE_DAYS while their owner adds the widget. null: none.
   */
  graceUntil: string | null;
  /** reCAPTCHA v3 only: the action a token must have been made for; absent: any. */
  action?: string;
}

/** How long after a CAPTCHA is switched on a post without any answer is kept as spam. */
export const CAPTCHA_GRACE_DAYS = 7;

export interface SpamFilterSettings {
  enabled: boolean;
  /** More links than this across all values → `too-many-links`. */
  maxLinks: number;
  /** Whole words or phrases, compared case-insensitively → `blocked-word`. */
  blockedWords: string[];
  /** Same data, same IP, same form within 10 minutes → `duplicate`. */
  duplicates: boolean;
}

/** What every form has until its owner changes it (a null column means this). */
export const DEFAULT_SPAM_FILTER: Readonly<SpamFilterSettings> = Object.freeze({
  enabled: true,
  maxLinks: 5,
  blockedWords: [],
  duplicates: false,
});

export const SPAM_REASONS = [
  'captcha-unavailable',
  'captcha-missing',
  'too-many-links',
  'blocked-word',
  'duplicate',
  'marked-by-owner',
] as const;
export type SpamReason = (typeof SPAM_REASONS)[number];

/** MariaDB's JSON is LONGTEXT: a JSON column may come back as text. */
function parsed(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return null;
  }
}

export function storedCaptcha(value: unknown): CaptchaSettings | null {
  const raw = parsed(value) as Partial<CaptchaSettings> | null;
  if (raw === null || typeof raw !== 'object') return null;
  if (!(CAPTCHA_PROVIDERS as readonly unknown[]).includes(raw.provider)) {
    return null;
  }
  return {
    provider: raw.provider!,
    siteKey: typeof raw.siteKey === 'string' ? raw.siteKey : null,
    minScore: typeof raw.minScore === 'number' ? raw.minScore : null,
    graceUntil:
      typeof raw.graceUntil === 'string' &&
      !Number.isNaN(Date.parse(raw.graceUntil))
        ? raw.graceUntil
        : null,
    ...(typeof raw.action === 'string' ? { action: raw.action } : {}),
  };
}

/** The end of a CAPTCHA's grace when it is still running at `now`, else null. */
export function runningGrace(
  captcha: Pick<CaptchaSettings, 'graceUntil'> | null,
  now = Date.now(),
): Date | null {
  if (!captcha?.graceUntil) return null;
  const until = new Date(captcha.graceUntil);
  return until.getTime() > now ? until : null;
}

export function storedSpamFilter(value: unknown): SpamFilterSettings {
  const raw = parsed(value) as Partial<SpamFilterSettings> | null;
  const defaults = DEFAULT_SPAM_FILTER;
  if (raw === null || typeof raw !== 'object') {
    return { ...defaults, blockedWords: [] };
  }
  return {
    enabled: typeof raw.enabled === 'boolean' ? raw.enabled : defaults.enabled,
    maxLinks:
      typeof raw.maxLinks === 'number' ? raw.maxLinks : defaults.maxLinks,
    blockedWords: Array.isArray(raw.blockedWords)
      ? raw.blockedWords.filter((w): w is string => typeof w === 'string')
      : [],
    duplicates:
      typeof raw.duplicates === 'boolean'
        ? raw.duplicates
        : defaults.duplicates,
  };
}

/** `changes` over `base`: the properties present replace those of `base`. */
export function mergeSpamFilter(
  base: SpamFilterSettings,
  changes: Partial<SpamFilterSettings>,
): SpamFilterSettings {
  return {
    enabled: changes.enabled ?? base.enabled,
    maxLinks: changes.maxLinks ?? base.maxLinks,
    blockedWords: [...(changes.blockedWords ?? base.blockedWords)],
    duplicates: changes.duplicates ?? base.duplicates,
  };
}
