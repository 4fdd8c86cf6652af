// The public submit routes' URLs: /api/submit/:formId and the Formspree-compatible
// /f/:formId. Hooks that run for every request ask these first, so they are a few
// character tests.
import {
  FORMSPREE_ROUTE,
  isFormspreeUrl,
} from './formspree/formspree-answers.js';

export const SUBMIT_PREFIX = '/api/submit';
/** The submit route, as registered (Nest controller `api/submit`). */
export const SUBMIT_ROUTE = `${SUBMIT_PREFIX}/:formId`;

/** The routes the submit rate limit counts (POST), by the path they are registered with. */
export const RATE_LIMITED_SUBMIT_ROUTES: ReadonlySet<string> = new Set([
  SUBMIT_ROUTE,
  FORMSPREE_ROUTE,
]);

export function isSubmitUrl(url: string): boolean {
  if (!url.startsWith(SUBMIT_PREFIX)) return false;
  const next = url.charAt(SUBMIT_PREFIX.length);
  return next === '' || next === '/' || next === '?';
}

/** Either public submit route: /api/submit/… or the Formspree-compatible /f/:formId. */
export function isPublicSubmitUrl(url: string): boolean {
  return isSubmitUrl(url) || isFormspreeUrl(url);
}
