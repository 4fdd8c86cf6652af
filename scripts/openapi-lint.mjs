// `npm run lint:openapi`: lints the OpenAPI document the application itself serves at
// /docs-json with Redocly's recommended rules, and fails on any error or warning. The app
// is built when stale and asked for its document in this process (no network: nothing is
// fetched, Redocly's telemetry and update check are off).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { servedDocument } from './served-openapi.mjs';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const document = await servedDocument();

const dir = mkdtempSync(join(tmpdir(), 'formgate-openapi-'));
const file = join(dir, 'openapi.json');
writeFileSync(file, document);
const redocly = spawnSync(
  process.execPath,
  [
    join(root, 'node_modules/@redocly/cli/bin/cli.js'),
    'lint',
    '--config',
    join(root, 'redocly.yaml'),
    '--format',
    'json',
    '--max-problems',
    '500',
    file,
  ],
  {
    encoding: 'utf8',
    env: {
      ...process.env,
      REDOCLY_TELEMETRY: 'off',
      REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
    },
  },
);
rmSync(dir, { recursive: true, force: true });

let report;
try {
  report = JSON.parse(redocly.stdout);
} catch {
  process.stderr.write(redocly.stdout + redocly.stderr);
  console.error('redocly lint did not produce a report');
  process.exit(1);
}
const { totals, problems } = report;
for (const problem of problems) {
  const where = problem.location
    ?.map((l) => l.pointer)
    .filter(Boolean)
    .join(', ');
  console.log(
    `${problem.severity} ${problem.ruleId}: ${problem.message}${where ? ` (at ${where})` : ''}`,
  );
}
console.log(
  `/docs-json, Redocly recommended rules: ${totals.errors} errors, ${totals.warnings} warnings`,
);
// Warnings fail too: the document is for generated clients, which trust it to the letter.
process.exit(totals.errors + totals.warnings === 0 ? 0 : 1);
