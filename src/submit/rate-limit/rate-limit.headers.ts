// The rate-limit fields every response of the submit route carries: the widespread
// X-RateLimit-* trio and the IETF RateLimit / RateLimit-Policy fields
// (draft-ietf-httpapi-ratelimit-headers-10: structured-field lists of quota policies).

/** The name of our one quota policy in the IETF fields. */
export const RATE_LIMIT_POLICY = 'submit';

export const RATE_LIMIT_HEADERS = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'RateLimit',
  'RateLimit-Policy',
  'Retry-After',
] as const;

export interface RateLimitState {
  limit: number;
  windowSeconds: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

/** Header values for one state; `Retry-After` only when the client is refused. */
export function rateLimitHeaders(
  state: RateLimitState,
  refused = false,
): Record<string, string> {
  const remaining = Math.max(0, state.remaining);
  const reset = Math.max(0, state.resetSeconds);
  const headers: Record<string, string> = {
    'x-ratelimit-limit': String(state.limit),
    'x-ratelimit-remaining': String(remaining),
    'x-ratelimit-reset': String(reset),
    'ratelimit-policy': `"${RATE_LIMIT_POLICY}";q=${state.limit};w=${state.windowSeconds}`,
    ratelimit: `"${RATE_LIMIT_POLICY}";r=${remaining};t=${reset}`,
  };
  if (refused) headers['retry-after'] = String(reset);
  return headers;
}
