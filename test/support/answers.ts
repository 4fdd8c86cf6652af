// Builders for the answers the specs expect, written once: a refusal of the API in the one
// error shape, and an HTML page (the dashboard's, the submit route's, a download link's) by
// its status and title. A spec states what it expects; how that is checked lives here.
import type { Page } from './dashboard-client.js';
import { errorBody } from './errors.js';
import type { HttpResponse } from './http.js';

/** What an error answer holds: `{ error }`, and `errors` for a validation failure. */
export interface ErrorAnswer {
  error: unknown;
  errors?: unknown;
}

/**
 * Asserts a refusal of the API: its status, a JSON body, and that body exactly — `expected`
 * is the whole body (`FORM_NOT_FOUND`, `errorBody(…)`) or just its `error` sentence.
 * `label` names the case in a failure, when a loop tries many.
 */
export function expectProblem(
  res: Pick<HttpResponse, 'status' | 'headers' | 'body'>,
  status: number,
  expected: string | ErrorAnswer,
  label?: string,
): void {
  expect(res.status, label).toBe(status);
  expect(res.headers.get('content-type'), label).toMatch(
    /^application\/json\b/,
  );
  expect(res.body, label).toEqual(
    typeof expected === 'string' ? errorBody(expected) : expected,
  );
}

/** The text of a page's `<title>`, without the dashboard's " · Formgate" and entities read. */
export function titleOf(html: string): string | undefined {
  const title = /<title>([^<]*)<\/title>/.exec(html)?.[1];
  return title
    ?.replace(/ · Formgate$/, '')
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/**
 * Asserts an HTML page: its status, an HTML content type, and its title (the dashboard's
 * pages end theirs in " · Formgate", left out here). Returns the page's HTML.
 */
export function expectPage(
  res: Page | HttpResponse,
  status: number,
  title: string,
): string {
  const html = 'html' in res ? res.html : res.text;
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^text\/html\b/);
  expect(titleOf(html)).toBe(title);
  return html;
}
