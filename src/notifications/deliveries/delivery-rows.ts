// Delivery rows as the drivers hand them back (dates as text on SQLite, as Date on
// MySQL/MariaDB; numbers sometimes as strings), what a claim keeps of its candidates, and
// the walk of the claim index that finds the due groups on SQLite.
import { toDate } from '../../common/database/sql-dates.js';
import type { SqliteStatements } from '../../common/database/sqlite-statements.js';
import { CLAIMABLE } from './delivery-columns.js';
import type { DeliverySql } from './delivery-sql.js';
import type { GroupTake } from './delivery-statement-inputs.js';
import { Delivery } from './delivery.entity.js';

export type Row = Record<string, unknown>;

/** An (account, target) pair with deliveries due, as a claim finds it. */
export interface DueGroup {
  accountId: string;
  target: string;
}

/** Each (account, target) once, in the order the rows name them. */
export function distinctGroups(rows: readonly Row[]): DueGroup[] {
  const groups = new Map<string, DueGroup>();
  for (const { accountId, target } of rows) {
    const group = { accountId: String(accountId), target: String(target) };
    const key = `${group.accountId}\u0000${group.target}`;
    if (!groups.has(key)) groups.set(key, group);
  }
  return [...groups.values()];
}

function orNull<T>(value: T | undefined): T | null {
  return value === undefined ? null : value;
}

export function dateOrNull(value: unknown): Date | null {
  return value === null || value === undefined
    ? null
    : toDate(value as Date | string);
}

/** A row as the drivers return it, as the entity. */
export function toDelivery(row: Row): Delivery {
  return Object.assign(new Delivery(), {
    id: row.id,
    formId: row.formId,
    accountId: row.accountId,
    submissionId: orNull(row.submissionId),
    channel: row.channel,
    target: row.target,
    event: row.event,
    payload: orNull(row.payload),
    status: row.status,
    attempts: Number(row.attempts),
    scheduleStart: Number(row.scheduleStart),
    nextAttemptAt: dateOrNull(row.nextAttemptAt),
    leaseOwner: orNull(row.leaseOwner),
    leaseUntil: dateOrNull(row.leaseUntil),
    lastStatusCode:
      row.lastStatusCode === null ? null : Number(row.lastStatusCode),
    lastError: orNull(row.lastError),
    lastDurationMs:
      row.lastDurationMs === null ? null : Number(row.lastDurationMs),
    createdAt: toDate(row.createdAt as Date | string),
    deliveredAt: dateOrNull(row.deliveredAt),
  } as Delivery);
}

/** What the retention sweep reads of an old delivery. */
export interface OldRow {
  id: string;
  createdAt: Date;
  leaseUntil: Date | null;
}

export function toOldRow(row: Row): OldRow {
  return {
    id: String(row.id),
    createdAt: toDate(row.createdAt as Date | string),
    leaseUntil: dateOrNull(row.leaseUntil),
  };
}

/** Claimed rows as they now are: leased to `owner` until `until`, due again then. */
export function leased(rows: Row[], owner: string, until: Date): Delivery[] {
  return rows.map((row) =>
    toDelivery({
      ...row,
      leaseOwner: owner,
      leaseUntil: until,
      nextAttemptAt: until,
    }),
  );
}

/**
 * Longest due first; deliveries due at the same moment oldest first (their ids are
 * time-ordered), so a claim returns them in the same order whatever order the database
 * handed them in.
 */
function byDue(a: Row, b: Row): number {
  const due =
    toDate(a.nextAttemptAt as Date | string).getTime() -
    toDate(b.nextAttemptAt as Date | string).getTime();
  if (due !== 0) return due;
  const [x, y] = [String(a.id), String(b.id)];
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The `take` longest due of each group's candidates, all of them longest due first. */
export function chosen(candidates: Row[], groups: readonly GroupTake[]): Row[] {
  const byGroup = new Map<string, Row[]>();
  for (const row of candidates) {
    const key = `${String(row.accountId)}\u0000${String(row.target)}`;
    const list = byGroup.get(key) ?? [];
    list.push(row);
    byGroup.set(key, list);
  }
  const picked: Row[] = [];
  for (const group of groups) {
    const rows = byGroup.get(`${group.accountId}\u0000${group.target}`) ?? [];
    rows.sort(byDue);
    picked.push(...rows.slice(0, group.take));
  }
  return picked.sort(byDue);
}

/** Groups a claim on SQLite looks at most, walking the claim index. */
const SQLITE_GROUP_STEPS = 5000;

/**
 * SQLite, which has no loose index scan: every (account, target) with a claimable delivery
 * due by `now`, with one seek of the claim index per group, for each claimable status.
 */
export function walkGroups(
  sqlite: SqliteStatements,
  sql: DeliverySql,
  now: Date,
): DueGroup[] {
  const due = new Map<string, DueGroup>();
  const nowMs = now.getTime();
  let steps = 0;
  for (const status of CLAIMABLE) {
    let group = sqlite.get<Row>(sql.nextGroup(status));
    while (group !== undefined && steps < SQLITE_GROUP_STEPS) {
      steps += 1;
      const accountId = String(group.accountId);
      const target = String(group.target);
      if (toDate(group.nextAttemptAt as string).getTime() <= nowMs) {
        due.set(`${accountId}\u0000${target}`, { accountId, target });
      }
      group =
        sqlite.get<Row>(sql.nextGroup(status, { accountId, target })) ??
        sqlite.get<Row>(sql.nextGroup(status, { accountId }));
    }
  }
  return [...due.values()];
}
