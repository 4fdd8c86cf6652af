// Reading the audit log's stored rows in the audit e2e specs.
import type { TestApp } from '../../support/test-app.js';

export interface StoredEvent {
  id: string;
  accountId: string;
  seq: number;
  actorType: string;
  actorId: string | null;
  actorLabel: string;
  action: string;
  targetType: string;
  targetId: string | null;
  details: Record<string, unknown>;
  ip: string | null;
  userAgent: string | null;
  hash: string;
}

/** The account's events in chain order, details parsed. */
export async function storedEvents(
  t: TestApp,
  accountId: string,
): Promise<StoredEvent[]> {
  const rows = (await t.dataSource.query(
    'SELECT * FROM audit_event WHERE accountId = ? ORDER BY seq',
    [accountId],
  )) as (Omit<StoredEvent, 'details'> & { details: string })[];
  return rows.map((row) => ({
    ...row,
    seq: Number(row.seq),
    details: JSON.parse(row.details) as Record<string, unknown>,
  }));
}

/** The events recorded since `after` (a count of stored events before the change). */
export async function eventsSince(
  t: TestApp,
  accountId: string,
  after: number,
): Promise<StoredEvent[]> {
  return (await storedEvents(t, accountId)).slice(after);
}

/** The account's events as raw text, for a search of secrets. */
export async function rawEvents(t: TestApp): Promise<string> {
  const rows = await t.dataSource.query('SELECT * FROM audit_event');
  return JSON.stringify(rows);
}
