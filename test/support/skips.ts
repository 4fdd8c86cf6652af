// Tests that need a service the machine may not have (MySQL/MariaDB, Redis, Chromium) are
// skipped without it, and say why: the reason goes into the skipped suite's name, and the
// skipped-tests reporter (test/support/skipped-reporter.ts) lists every reason at the end
// of `npm test`.

/** Marks the reason in a skipped suite's name; the reporter reads it back. */
export const SKIP_REASON_PREFIX = '— skipped: ';

type Describe = (name: string, body: () => void) => void;

/** `describe` when `condition` holds; otherwise a skipped `describe` that carries `reason`. */
export function describeWhen(condition: boolean, reason: string): Describe {
  if (condition) return describe;
  return (name, body) =>
    describe.skip(`${name} ${SKIP_REASON_PREFIX}${reason}`, body);
}

/** A Redis server for the tests that share state through it (CI: redis://127.0.0.1:6379). */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL;
export const NEEDS_REDIS =
  'needs Redis: set TEST_REDIS_URL, e.g. TEST_REDIS_URL=redis://127.0.0.1:6379 npm test';
