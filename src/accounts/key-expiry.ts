// When an account key expires, as the API and the CLI take it, and what an expiring key
// may do with other keys. Free of framework imports: the CLI parses its arguments before
// it boots anything.
import type { ApiPrincipal } from '../auth/principal.js';

/**
 * An expiry as the API and the CLI take it: ISO 8601; a time needs its zone (`Z` or an
 * offset) so that it means the same instant on every server. undefined when malformed.
 */
export function parseExpiry(text: string): Date | undefined {
  const trimmed = text.trim();
  const dateOnly = /^\d{4}-\d\d-\d\d$/.test(trimmed);
  const zoned =
    /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d{1,3})?)?(Z|[+-]\d\d:\d\d)$/i.test(
      trimmed,
    );
  if (!dateOnly && !zoned) return undefined;
  // A day that does not exist (2026-02-30) is refused, not rolled over to March.
  const [year, month, day] = trimmed.slice(0, 10).split('-').map(Number);
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth) return undefined;
  const date = new Date(trimmed);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

export const EXPIRES_AT_FORMAT =
  'expiresAt must be an ISO 8601 date, or a date and time with its time zone (e.g. 2026-12-31T23:59:59Z)';

/**
 * true when a key expiring at `expiresAt` (null: never) outlives `limit`, the expiry of
 * the key asking (undefined: it never expires, and nothing outlives it). An expiring key
 * may not revoke, replace or otherwise act on such a key (docs/lifecycle.md).
 */
export function outlives(
  expiresAt: Date | null | undefined,
  limit: Date | undefined,
): boolean {
  return limit !== undefined && (expiresAt == null || expiresAt > limit);
}

/** The 403 an expiring key gets for a key that outlives it. */
export function outlivedKeyMessage(limit: Date): string {
  return `This API key expires at ${limit.toISOString()}: it cannot act on a key that outlives it`;
}

/** When the principal's key stops working, or undefined when it never does (a member). */
export function keyExpiryOf(principal: ApiPrincipal): Date | undefined {
  return principal.kind === 'member' ? undefined : principal.keyExpiresAt;
}
