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

/** Where the fields go: a Fastify reply, or anything else that takes headers one by one. */
interface HeaderTarget {
  header(name: string, value: string): unknown;
}

/**
 * The fields of one limit. What never changes (the limit, the policy) is worked out once;
 * a request's own values are written straight onto its reply.
 */
export class RateLimitFields {
  private readonly limit: string;
  private readonly policy: string;

  constructor(limit: number, windowSeconds: number) {
    this.limit = String(limit);
    this.policy = `"${RATE_LIMIT_POLICY}";q=${limit};w=${windowSeconds}`;
  }

  /** Puts the fields on `target`; `Retry-After` only when the client is refused. */
  write(
    target: HeaderTarget,
    remainder: number,
    resetSeconds: number,
    refused = false,
  ): void {
    const remaining = String(Math.max(0, remainder));
    const reset = String(Math.max(0, resetSeconds));
    target.header('x-ratelimit-limit', this.limit);
    target.header('x-ratelimit-remaining', remaining);
    target.header('x-ratelimit-reset', reset);
    target.header('ratelimit-policy', this.policy);
    target.header(
      'ratelimit',
      `"${RATE_LIMIT_POLICY}";r=${remaining};t=${reset}`,
    );
    if (refused) target.header('retry-after', reset);
  }
}
