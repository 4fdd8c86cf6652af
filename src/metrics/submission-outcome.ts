// What became of a post to a public submit route, read from its answer in one place (the
// onResponse hook of http-telemetry.ts) rather than counted along the way: the status says
// it all but for a 200 that stored spam or was caught by the honeypot, which the submit
// controllers mark on the request (markVerdict) because they answer those like any other.
import type { FastifyRequest } from 'fastify';
import type { SubmissionOutcome } from './metrics.js';

/** A success that was not a person's submission. */
export type SubmitVerdict = 'spam' | 'honeypot';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the submit controllers when a 200 stored spam or trapped a bot. */
    formgateVerdict: SubmitVerdict | null;
  }
}

export function markVerdict(
  request: FastifyRequest,
  verdict: SubmitVerdict | undefined,
): void {
  if (verdict !== undefined) request.formgateVerdict = verdict;
}

export function submissionOutcome(
  statusCode: number,
  verdict: SubmitVerdict | null,
): SubmissionOutcome {
  if (statusCode < 400) return verdict ?? 'accepted';
  if (statusCode === 403) return 'forbidden';
  if (statusCode === 404) return 'not_found';
  if (statusCode === 429) return 'rate_limited';
  return statusCode >= 500 ? 'unavailable' : 'invalid';
}
