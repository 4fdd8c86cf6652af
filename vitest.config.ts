import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// One suite: unit specs beside the code (src/**/*.spec.ts), end-to-end specs in test/
// (*.e2e-spec.ts) and browser specs (*.browser-spec.ts). TEST_DATABASE_URL switches the
// e2e database from in-memory SQLite to a MySQL/MariaDB server.
export default defineConfig({
  test: {
    globals: true,
    root: './',
    include: [
      'src/**/*.spec.ts',
      'test/**/*.e2e-spec.ts',
      'test/**/*.browser-spec.ts',
    ],
    setupFiles: ['./test/support/setup.ts'],
    // The default summary, then which tests were skipped and why.
    reporters: ['default', './test/support/skipped-reporter.ts'],
    pool: 'forks',
    // At least two files at a time: most e2e time is spent waiting on servers, databases and
    // timers, so even a 2-core machine (where the default would be one) runs the suite in
    // about two thirds of the time. Every test app has its own port and database.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
