// The Formspree-compatible route, `POST /f/:formId` (docs/formspree.md): the submit path of
// /api/submit with Formspree's control fields, its CORS headers and the JSON shapes
// `@formspree/core` parses. This file holds what that route answers differently; the
// checks, the commit and the pages for navigating browsers are the submit route's own.
import type { ErrorIssue } from '../../common/errors/errors.js';
import type { ErrorResponse } from '../../common/errors/error-response.js';

/** The route, as registered (Nest controller `f`). */
export const FORMSPREE_ROUTE = '/f/:formId';
/** Formspree's redirect field: steers a navigating browser, read like `_redirect`. */
export const NEXT_KEY = '_next';

/** What the client libraries send: their own two headers besides the usual ones. */
export const FORMSPREE_PREFLIGHT_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-methods': 'POST, OPTIONS',
  'access-control-allow-headers':
    'Content-Type, Accept, Accept-Language, X-Requested-With, Formspree-Client, Formspree-Session-Data',
  'access-control-max-age': '86400',
};

/** The empty body's message (Fastify refuses a zero-byte JSON body before the route). */
const EMPTY_JSON_MESSAGE = 'Request body is empty but declared as JSON';

/**
 * true for `/f/<formId>` (with or without a query): the route, not its thank-you page.
 * Runs for every request in an onRequest hook, so it is a few character tests.
 */
export function isFormspreeUrl(url: string): boolean {
  if (
    url.charCodeAt(0) !== 47 || // '/'
    url.charCodeAt(1) !== 102 || // 'f'
    url.charCodeAt(2) !== 47 // '/'
  ) {
    return false;
  }
  const query = url.indexOf('?', 3);
  const end = query === -1 ? url.length : query;
  if (end === 3) return false;
  const slash = url.indexOf('/', 3);
  return slash === -1 || slash >= end;
}

/** The thank-you page `next` names when the form has no redirectUrl. */
export function thanksUrl(publicUrl: string, formId: string): string {
  return `${publicUrl}/f/${encodeURIComponent(formId)}/thanks`;
}

/** One entry of a Formspree error answer. */
export interface FormspreeError {
  field?: string;
  code?: string;
  message: string;
}

/** The form-level code of a refusal, by status. */
const CODES: Readonly<Record<number, string>> = {
  403: 'BLOCKED',
  404: 'FORM_NOT_FOUND',
};

/**
 * `{error, errors: [{field?, code?, message}]}` from the route's own `{error}` /
 * `{error, errors: [...]}` answer: validation messages with the field and code their
 * issues give, 403 as BLOCKED, 404 as FORM_NOT_FOUND, an empty body as EMPTY, every other
 * refusal as one entry with its message.
 */
export function formspreeErrors(
  status: number,
  body: ErrorResponse['body'],
  issues: readonly ErrorIssue[] | undefined,
): { error: string; errors: FormspreeError[] } {
  const error = body.error;
  if (body.errors !== undefined) {
    const errors = body.errors.map((message, index) => {
      const entry: FormspreeError = { message };
      const issue = issues?.[index];
      if (issue?.field !== undefined) entry.field = issue.field;
      if (issue?.code !== undefined) entry.code = issue.code;
      return entry;
    });
    return { error, errors };
  }
  const code =
    status === 400 && error === EMPTY_JSON_MESSAGE ? 'EMPTY' : CODES[status];
  return {
    error,
    errors: [
      code === undefined ? { message: error } : { code, message: error },
    ],
  };
}
