// A person's browser leaving the page through a native form post gets HTML instead of JSON:
// the same status with a page a visitor understands, or 303 See Other to the form's
// redirect target after a success. Every other client gets the JSON answers unchanged.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import { matchVerifiedDomain } from '../domain-verification/origin-policy.js';
import {
  bareHostname,
  MAX_REDIRECT_URL_LENGTH,
  parseAbsoluteHttpUrl,
} from '../forms/redirect-url.js';
import {
  PAGE_HEADERS,
  refusalPage,
  thankYouPage,
  validationPage,
} from './pages/submit-pages.js';

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

/** How a navigation's success is answered: a redirect, or the thank-you page. */
export interface SuccessPage {
  location: string | null;
  message: string | null;
}

// Keyed by request, so requests that never get a page keep their shape.
const successPages = new WeakMap<FastifyRequest, SuccessPage>();

export function answerWithPage(
  request: FastifyRequest,
  page: SuccessPage,
): void {
  successPages.set(request, page);
}

function errorBody(payload: unknown): { error?: string; errors?: string[] } {
  if (typeof payload !== 'string') return {};
  try {
    const parsed = JSON.parse(payload) as unknown;
    return typeof parsed === 'object' && parsed !== null ? parsed : {};
  } catch {
    return {};
  }
}

function referer(request: FastifyRequest): string | undefined {
  return request.headers.referer;
}

/**
 * The payload a submit answer is sent with: unchanged for scripts, a page (or an empty
 * 303) for navigations. Called from the route's onSend hook.
 */
export function pageFor(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): unknown {
  const status = reply.statusCode;
  if (status < 400) {
    const success = successPages.get(request);
    if (success === undefined) return payload;
    if (success.location !== null) {
      void reply
        .code(303)
        .header('location', success.location)
        .header('cache-control', 'no-store')
        .removeHeader('content-type');
      return '';
    }
    void reply.headers(PAGE_HEADERS);
    return thankYouPage(success.message, referer(request));
  }
  if (!isNavigation(request.headers)) return payload;
  const body = errorBody(payload);
  void reply.headers(PAGE_HEADERS);
  if (status === 400 && Array.isArray(body.errors)) {
    return validationPage(body.errors, referer(request));
  }
  return refusalPage(status, body.error, referer(request));
}
