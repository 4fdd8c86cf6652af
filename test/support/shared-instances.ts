// What specs that start several app instances on one database and one Redis share.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createTestDatabase,
  usingMysql,
  type TestDatabase,
} from './test-database.js';

/** A Redis URL with a key prefix of its own, so test runs never share counters. */
export function withKeyPrefix(url: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set(
    'keyPrefix',
    `formgate-test-${process.pid}-${randomBytes(4).toString('hex')}:`,
  );
  return parsed.toString();
}

/** One database several app instances can share (a temporary SQLite file by default). */
export async function sharedDatabase(): Promise<TestDatabase> {
  if (usingMysql()) return createTestDatabase();
  const dir = mkdtempSync(join(tmpdir(), 'formgate-shared-'));
  return {
    url: `sqlite:${join(dir, 'shared.sqlite')}`,
    drop: () => Promise.resolve(rmSync(dir, { recursive: true, force: true })),
  };
}
