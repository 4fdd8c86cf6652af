// What the POST /api/submit/:formId specs share.
import { Submission } from '../../src/submissions/submission.entity.js';
import type { HttpResponse } from './http.js';
import type { TestApp } from './test-app.js';

/**
 * The submit URL and the stored rows of a form (the spec's default form unless another
 * id is given), bound to the spec's test app (getters: both are set in beforeAll).
 */
export function submitApi(app: () => TestApp, defaultFormId: () => string) {
  const repo = () => app().dataSource.getRepository(Submission);
  return {
    url: (id = defaultFormId()) => `${app().url}/api/submit/${id}`,
    rows: (id = defaultFormId()) =>
      repo().find({ where: { formId: id }, order: { id: 'ASC' } }),
    countRows: (id = defaultFormId()) => repo().countBy({ formId: id }),
  };
}

/**
 * The CORS and rate-limit headers every response of the route carries, in a spec whose
 * SUBMIT_RATE_LIMIT is 100000.
 */
export function expectRouteHeaders(res: HttpResponse): void {
  expect(res.headers.get('access-control-allow-origin')).toBe('*');
  expect(res.headers.get('access-control-allow-credentials')).toBeNull();
  expect(res.headers.get('access-control-expose-headers')).toBe(
    'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, RateLimit, RateLimit-Policy, Retry-After, Idempotent-Replayed',
  );
  expect(res.headers.get('x-ratelimit-limit')).toBe('100000');
  expect(res.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
  expect(res.headers.get('x-ratelimit-reset')).toMatch(/^\d+$/);
  expect(res.headers.get('ratelimit-policy')).toBe('"submit";q=100000;w=60');
  expect(res.headers.get('ratelimit')).toMatch(/^"submit";r=\d+;t=\d+$/);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
}
