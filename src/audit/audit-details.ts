// The details of an event: the properties a change touched, before → after. A secret is
// never written, only that it changed (docs/audit.md).
import type { AuditDetails } from './audit-hash.js';

export const CHANGED = 'changed';

export interface Change {
  before: unknown;
  after: unknown;
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/**
 * `{property: {before, after}}` for each of `keys` whose value differs between `before` and
 * `after` (absent counts as null); `secrets` are given as "changed" instead of their values.
 */
export function changesOf<T extends object>(
  before: Partial<T>,
  after: Partial<T>,
  keys: ReadonlyArray<keyof T & string>,
  secrets: ReadonlyArray<keyof T & string> = [],
): AuditDetails {
  const details: AuditDetails = {};
  for (const key of keys) {
    if (!(key in after)) continue;
    const was = before[key] ?? null;
    const now = after[key] ?? null;
    if (same(was, now)) continue;
    details[key] = secrets.includes(key)
      ? CHANGED
      : ({ before: was, after: now } satisfies Change);
  }
  return details;
}
