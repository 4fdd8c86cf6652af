// The chain's arithmetic (docs/audit.md#verifying): an event's hash is SHA-256 over the
// previous event's hash and the event's canonical JSON — its properties in a fixed order
// (keys sorted at every level), so the same event always hashes the same on any instance.
import { createHash } from 'node:crypto';
import type { ActorType } from './audit-actions.js';

/** The anchor of a chain nothing was ever deleted from. */
export const GENESIS_HASH = '0'.repeat(64);

export type AuditDetails = Record<string, unknown>;

/** What the hash covers of an event. */
export interface HashedEvent {
  id: string;
  accountId: string;
  seq: number;
  at: Date;
  actor: { type: ActorType; id: string | null; label: string };
  action: string;
  target: { type: string; id: string | null };
  details: AuditDetails;
  ip: string | null;
  userAgent: string | null;
}

/** JSON with the keys of every object sorted; undefined properties left out, as JSON does. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    return JSON.stringify(value) ?? 'null';
  }
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (Array.isArray(value)) {
    return `[${value.map((item) => canonicalJson(item)).join(',')}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, item]) => item !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries
    .map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`)
    .join(',')}}`;
}

export function eventHash(previousHash: string, event: HashedEvent): string {
  return createHash('sha256')
    .update(previousHash)
    .update('\n')
    .update(canonicalJson(event))
    .digest('hex');
}
