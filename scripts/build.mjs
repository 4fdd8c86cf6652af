// Builds the server into dist/ with the Nest CLI and records a fingerprint of the sources
// it was built from. With --if-stale it builds only when that fingerprint changed, so a
// restart without code changes starts at once instead of compiling for ten seconds or more.
// Build output goes to stderr: commands such as `npm run cli` keep stdout for their answer.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const DIST = join(ROOT, 'dist');
const FINGERPRINT_FILE = join(DIST, '.build-fingerprint');
const NEST_CLI = join(ROOT, 'node_modules', '@nestjs', 'cli', 'bin', 'nest.js');

/** What the build reads: sources, templates, migrations and the build's own settings. */
const INPUT_DIRS = ['src', 'migrations'];
const INPUT_FILES = [
  'package.json',
  'package-lock.json',
  'nest-cli.json',
  'tsconfig.json',
  'tsconfig.build.json',
];

function* filesUnder(dir) {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(path);
    else if (!entry.name.endsWith('.spec.ts')) yield path;
  }
}

/** Paths, sizes and modification times of every input: cheap, and any edit changes it. */
export function sourceFingerprint(root = ROOT) {
  const files = [
    ...INPUT_DIRS.flatMap((dir) => [...filesUnder(join(root, dir))]),
    ...INPUT_FILES.map((file) => join(root, file)).filter((file) =>
      existsSync(file),
    ),
  ].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const hash = createHash('sha256');
  for (const file of files) {
    const { size, mtimeMs } = statSync(file);
    hash.update(`${relative(root, file)}\0${size}\0${mtimeMs}\n`);
  }
  return hash.digest('hex');
}

export function isBuildCurrent(fingerprint = sourceFingerprint()) {
  if (!existsSync(join(DIST, 'src', 'main.js'))) return false;
  try {
    return readFileSync(FINGERPRINT_FILE, 'utf8').trim() === fingerprint;
  } catch {
    return false;
  }
}

/** Builds when needed (or always); returns false when the build failed. */
export function build({ ifStale = false } = {}) {
  // Taken before compiling: a file saved during the build makes the next start rebuild.
  const fingerprint = sourceFingerprint();
  if (ifStale && isBuildCurrent(fingerprint)) return true;
  if (!existsSync(NEST_CLI)) {
    console.error(
      'dist/ is missing or older than the sources, and the build tools are not installed: run "npm install" (with dev dependencies), then try again.',
    );
    return false;
  }
  if (ifStale) console.error('Sources changed since the last build: building…');
  const result = spawnSync(process.execPath, [NEST_CLI, 'build'], {
    cwd: ROOT,
    stdio: ['ignore', 2, 2],
  });
  if (result.status !== 0) return false;
  writeFileSync(FINGERPRINT_FILE, `${fingerprint}\n`);
  return true;
}

if (
  process.argv[1] &&
  resolve(process.argv[1]) === fileURLToPath(import.meta.url)
) {
  const ok = build({ ifStale: process.argv.includes('--if-stale') });
  process.exitCode = ok ? 0 : 1;
}
