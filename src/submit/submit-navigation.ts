// Whether a request is a person's browser leaving the page through a native form post
// (it then gets HTML instead of JSON: submit-answer.ts), and where its success may send it.
import type { IncomingHttpHeaders } from 'node:http';
import { matchVerifiedDomain } from '../domain-verification/origin-policy.js';
import {
  bareHostname,
  MAX_REDIRECT_URL_LENGTH,
  parseAbsoluteHttpUrl,
} from '../forms/settings/redirect-url.js';

export const JSON_TYPE = 'application/json';
export const FORM_TYPE = 'application/x-www-form-urlencoded';
export const MULTIPART_TYPE = 'multipart/form-data';
/** The control field a page may send to pick its own thank-you address. */
export const REDIRECT_KEY = '_redirect';

/** The media type of a Content-Type header, lower-case, without parameters. */
export function mediaTypeOf(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const end = header.indexOf(';');
  return (end === -1 ? header : header.slice(0, end)).trim().toLowerCase();
}

/**
 * True for a browser navigating with a form body: `Sec-Fetch-Mode: navigate`, or — from
 * a browser without Fetch Metadata — an Accept that lists text/html first and no JSON.
 * A text/plain body is a native form too (enctype="text/plain"), refused with 415.
 */
export function isNavigation(
  headers: IncomingHttpHeaders,
  mediaType = mediaTypeOf(headers['content-type']),
): boolean {
  if (
    mediaType !== FORM_TYPE &&
    mediaType !== MULTIPART_TYPE &&
    mediaType !== 'text/plain'
  ) {
    return false;
  }
  const mode = headers['sec-fetch-mode'];
  if (mode !== undefined) return mode === 'navigate';
  const accept = headers.accept;
  if (typeof accept !== 'string') return false;
  const first = mediaTypeOf(accept.split(',', 1)[0]);
  return first === 'text/html' && !accept.toLowerCase().includes(JSON_TYPE);
}

/** What the submit route knows about where a successful post may send the browser. */
export interface RedirectPolicy {
  redirectUrl: string | null;
  /** redirectUrl's hostname, computed once. */
  redirectHost: string | null;
  verifiedDomains: ReadonlySet<string>;
}

/**
 * Where a successful navigation goes: `_redirect` (the Formspree-compatible route reads
 * `_next` instead) when it is an absolute http(s) URL on redirectUrl's host (any port) or
 * on a verified domain of the form (or a subdomain of one), else redirectUrl; null for the
 * thank-you page. Never anywhere else.
 */
export function redirectTarget(
  policy: RedirectPolicy,
  body: unknown,
  key = REDIRECT_KEY,
): string | null {
  const requested =
    typeof body === 'object' && body !== null && Object.hasOwn(body, key)
      ? (body as Record<string, unknown>)[key]
      : undefined;
  if (typeof requested === 'string' && requested !== '') {
    const url = parseAbsoluteHttpUrl(requested);
    if (url !== null && url.href.length <= MAX_REDIRECT_URL_LENGTH) {
      const host = bareHostname(url);
      if (
        (policy.redirectHost !== null && host === policy.redirectHost) ||
        matchVerifiedDomain(host, policy.verifiedDomains) !== null
      ) {
        return url.href;
      }
    }
  }
  return policy.redirectUrl;
}
