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
    // The default summary, then which tests were skipped and why.
    reporters: ['default', './test/support/skipped-reporter.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
