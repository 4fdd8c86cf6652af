// The Idempotency-Key header (IETF httpapi draft; docs/api.md): what a valid key is, the
// row id a key gets in its scope, and the fingerprint of the request it was first sent
// with. Pure functions; the records are kept by IdempotencyStore.
import { BadRequestException } from '@nestjs/common';
import { createHash } from 'node:crypto';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** Sent with an answer that is a kept answer given again. */
export const REPLAYED_HEADER = 'Idempotent-Replayed';
/** How long a completed request's answer is kept. */
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;
/** How long a claim of a request still in flight holds, should its process die. */
export const IN_FLIGHT_TTL_MS = 60_000;

/** 1–255 printable ASCII characters (space to tilde). */
const VALID_KEY = /^[\x20-\x7e]{1,255}$/;

export const INVALID_IDEMPOTENCY_KEY =
  'Idempotency-Key must be 1 to 255 printable ASCII characters';
export const IDEMPOTENCY_KEY_REUSED =
  'This Idempotency-Key was already used with a different request (method, path or body)';
export const IDEMPOTENCY_IN_FLIGHT =
  'A request with this Idempotency-Key is still in progress: retry in a second';

/**
 * The header's key, undefined without the header; a value that is empty, too long, not
 * printable ASCII or repeated → 400.
 */
export function idempotencyKeyOf(
  headers: Record<string, string | string[] | undefined>,
): string | undefined {
  const value = headers[IDEMPOTENCY_HEADER];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !VALID_KEY.test(value)) {
    throw new BadRequestException(INVALID_IDEMPOTENCY_KEY);
  }
  return value;
}

/**
 * The record's id: SHA-256 of the scope (`submit:<formId>`, `api:<principal>`) and the
 * key, hex — the key itself is not stored.
 */
export function idempotencyRecordId(scope: string, key: string): string {
  return createHash('sha256')
    .update(scope)
    .update('\0')
    .update(key)
    .digest('hex');
}

/** SHA-256 of the method, the path (without the query) and the body as parsed, hex. */
export function requestFingerprint(
  method: string,
  url: string,
  body: unknown,
): string {
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  return createHash('sha256')
    .update(method.toUpperCase())
    .update('\0')
    .update(path)
    .update('\0')
    .update(body === undefined ? '' : JSON.stringify(body))
    .digest('hex');
}
