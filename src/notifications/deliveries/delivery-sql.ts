// The SQL text of every outbox statement — deliveries, their attempts and the outbox
// events — for both dialects, built without a connection so that delivery-sql.spec.ts can
// snapshot it. DeliveryRepository runs what this builds, and the commit queue's writers
// take the event's INSERT from here.
import { sqlDatetime } from '../../common/database/sql-dates.js';
import type {
  SqlDialect,
  SqlStatement,
} from '../../common/database/sql-statement.js';
import {
  CLAIM_INDEX,
  CLAIMABLE,
  DELIVERY_COLUMNS,
  NEW_DELIVERY_COLUMNS,
} from './delivery-columns.js';
import type { NewDelivery } from '../outbox/outbox-entry.js';
import { quoteIdentifier } from '../../common/database/sql-identifier.js';

import type {
  AttemptResult,
  GroupTake,
  NewAttempt,
} from './delivery-statement-inputs.js';

const marks = (n: number) => Array.from({ length: n }, () => '?').join(', ');
const at = (date: Date | null) => (date === null ? null : sqlDatetime(date));

export class DeliverySql {
  constructor(readonly dialect: SqlDialect) {}

  /** Quotes an identifier the way the TypeORM driver of the dialect does. */
  e(name: string): string {
    return quoteIdentifier(this.dialect, name);
  }

  private columns(names: readonly string[], table?: string): string {
    const prefix = table === undefined ? '' : `${this.e(table)}.`;
    return names.map((name) => prefix + this.e(name)).join(', ');
  }

  private get claimable(): string {
    return CLAIMABLE.map((status) => `'${status}'`).join(', ');
  }

  // ---- outbox events -------------------------------------------------------------

  /** The one row a commit batch adds for its submissions that notify (id, body, time). */
  insertEvent(): string {
    const e = (name: string) => this.e(name);
    return `INSERT INTO ${e('outbox_event')} (${e('id')}, ${e('submissions')}, ${e('createdAt')}) VALUES (?, ?, ?)`;
  }

  /** The oldest events, to be expanded into their deliveries. */
  nextEvents(limit: number): SqlStatement {
    const e = (name: string) => this.e(name);
    return {
      sql: `SELECT ${e('id')}, ${e('submissions')} FROM ${e('outbox_event')} ORDER BY ${e('id')} LIMIT ${Math.floor(limit)}`,
      params: [],
    };
  }

  /**
   * MySQL/MariaDB: takes the listed events for this transaction, skipping those another
   * worker is expanding right now.
   */
  lockEvents(ids: readonly string[]): SqlStatement {
    const e = (name: string) => this.e(name);
    return {
      sql: `SELECT ${e('id')} FROM ${e('outbox_event')} WHERE ${e('id')} IN (${marks(ids.length)}) FOR UPDATE SKIP LOCKED`,
      params: [...ids],
    };
  }

  deleteEvents(ids: readonly string[]): SqlStatement {
    const e = (name: string) => this.e(name);
    return {
      sql: `DELETE FROM ${e('outbox_event')} WHERE ${e('id')} IN (${marks(ids.length)})`,
      params: [...ids],
    };
  }

  // ---- deliveries ----------------------------------------------------------------

  /**
   * New deliveries, due at once. A delivery that exists already for the same submission,
   * channel and target (an event expanded twice) is left as it is: the unique key
   * UQ_delivery_submission_target makes expansion idempotent.
   */
  insertDeliveries(rows: readonly NewDelivery[]): SqlStatement {
    const e = (name: string) => this.e(name);
    const params: unknown[] = [];
    for (const row of rows) {
      params.push(
        row.id,
        row.formId,
        row.accountId,
        row.submissionId,
        row.channel,
        row.target,
        row.event,
        row.payload,
        'pending',
        0,
        0,
        sqlDatetime(row.createdAt),
        sqlDatetime(row.createdAt),
      );
    }
    const values = rows
      .map(() => `(${marks(NEW_DELIVERY_COLUMNS.length)})`)
      .join(', ');
    const ignore =
      this.dialect === 'sqlite'
        ? ` ON CONFLICT (${this.columns(['submissionId', 'channel', 'target'])}) DO NOTHING`
        : ` ON DUPLICATE KEY UPDATE ${e('id')} = ${e('id')}`;
    return {
      sql: `INSERT INTO ${e('delivery')} (${this.columns(NEW_DELIVERY_COLUMNS)}) VALUES ${values}${ignore}`,
      params,
    };
  }

  /**
   * MySQL/MariaDB: every (account, target) with a claimable delivery due by `now`, in one
   * loose index scan of CLAIM_INDEX (EXPLAIN: "Using index for group-by") — a seek per
   * group, however many deliveries each holds. `status` must be grouped on for MariaDB
   * to choose it.
   */
  dueGroups(now: Date): SqlStatement {
    const e = (name: string) => this.e(name);
    return {
      sql: `SELECT ${e('accountId')}, ${e('target')} FROM ${e('delivery')} FORCE INDEX (${e(CLAIM_INDEX)}) WHERE ${e('status')} IN (${this.claimable}) GROUP BY ${e('status')}, ${e('accountId')}, ${e('target')} HAVING MIN(${e('nextAttemptAt')}) <= ?`,
      params: [sqlDatetime(now)],
    };
  }

  /**
   * SQLite, which has no loose index scan: the group after (accountId, target) with this
   * status — the next target of the account, or else the first of the next account (pass
   * no target) — with its earliest nextAttemptAt; one seek of CLAIM_INDEX each. The claim
   * walks the groups with these.
   */
  nextGroup(
    status: string,
    after?: { accountId: string; target?: string },
  ): SqlStatement {
    const e = (name: string) => this.e(name);
    const where = [`${e('status')} = ?`];
    const params: unknown[] = [status];
    if (after?.target !== undefined) {
      where.push(`${e('accountId')} = ?`, `${e('target')} > ?`);
      params.push(after.accountId, after.target);
    } else if (after !== undefined) {
      where.push(`${e('accountId')} > ?`);
      params.push(after.accountId);
    }
    return {
      sql: `SELECT ${e('accountId')}, ${e('target')}, ${e('nextAttemptAt')} FROM ${e('delivery')} WHERE ${where.join(' AND ')} ORDER BY ${e('accountId')}, ${e('target')}, ${e('nextAttemptAt')} LIMIT 1`,
      params,
    };
  }

  /**
   * The longest-due claimable deliveries of each group, at most `take` of each status
   * (the claim keeps the `take` longest due of both): one range of CLAIM_INDEX per group
   * and status, so a backlog behind them costs nothing. SQLite reads whole rows (its one
   * worker claims them as they are); MySQL/MariaDB ids, locked next.
   */
  candidates(groups: readonly GroupTake[], now: Date): SqlStatement {
    const e = (name: string) => this.e(name);
    const columns =
      this.dialect === 'sqlite'
        ? this.columns(DELIVERY_COLUMNS)
        : this.columns(['id', 'accountId', 'target', 'nextAttemptAt']);
    const parts: string[] = [];
    const params: unknown[] = [];
    for (const group of groups) {
      for (const status of CLAIMABLE) {
        const select = `SELECT ${columns} FROM ${e('delivery')} WHERE ${e('status')} = ? AND ${e('accountId')} = ? AND ${e('target')} = ? AND ${e('nextAttemptAt')} <= ? ORDER BY ${e('nextAttemptAt')} LIMIT ${Math.floor(group.take)}`;
        parts.push(
          this.dialect === 'sqlite'
            ? `SELECT * FROM (${select})`
            : `(${select})`,
        );
        params.push(status, group.accountId, group.target, sqlDatetime(now));
      }
    }
    return { sql: parts.join(' UNION ALL '), params };
  }

  /**
   * MySQL/MariaDB: the candidates still claimable, locked for this transaction; rows
   * another worker holds are skipped, never waited for.
   */
  lockCandidates(ids: readonly string[], now: Date): SqlStatement {
    const e = (name: string) => this.e(name);
    return {
      sql: `SELECT ${this.columns(DELIVERY_COLUMNS)} FROM ${e('delivery')} WHERE ${e('id')} IN (${marks(ids.length)}) AND ${e('status')} IN (${this.claimable}) AND ${e('nextAttemptAt')} <= ? FOR UPDATE SKIP LOCKED`,
      params: [...ids, sqlDatetime(now)],
    };
  }

  /**
   * Claims the deliveries for `owner` until `until`: the lease's end is also when they
   * are due again, should the worker die.
   */
  lease(ids: readonly string[], owner: string, until: Date): SqlStatement {
    const e = (name: string) => this.e(name);
    return {
      sql: `UPDATE ${e('delivery')} SET ${e('leaseOwner')} = ?, ${e('leaseUntil')} = ?, ${e('nextAttemptAt')} = ? WHERE ${e('id')} IN (${marks(ids.length)})`,
      params: [owner, sqlDatetime(until), sqlDatetime(until), ...ids],
    };
  }

  /** Extends the leases `owner` still holds. */
  renew(ids: readonly string[], owner: string, until: Date): SqlStatement {
    const e = (name: string) => this.e(name);
    return {
      sql: `UPDATE ${e('delivery')} SET ${e('leaseUntil')} = ?, ${e('nextAttemptAt')} = ? WHERE ${e('leaseOwner')} = ? AND ${e('status')} IN (${this.claimable}) AND ${e('id')} IN (${marks(ids.length)})`,
      params: [sqlDatetime(until), sqlDatetime(until), owner, ...ids],
    };
  }

  /** Gives claimed deliveries back, due at `now`. */
  release(ids: readonly string[], owner: string, now: Date): SqlStatement {
    const e = (name: string) => this.e(name);
    return {
      sql: `UPDATE ${e('delivery')} SET ${e('leaseOwner')} = NULL, ${e('leaseUntil')} = NULL, ${e('nextAttemptAt')} = ? WHERE ${e('leaseOwner')} = ? AND ${e('status')} IN (${this.claimable}) AND ${e('id')} IN (${marks(ids.length)})`,
      params: [sqlDatetime(now), owner, ...ids],
    };
  }

  insertAttempts(attempts: readonly NewAttempt[]): SqlStatement {
    const e = (name: string) => this.e(name);
    const columns = [
      'id',
      'deliveryId',
      'at',
      'statusCode',
      'error',
      'durationMs',
    ];
    return {
      sql: `INSERT INTO ${e('delivery_attempt')} (${this.columns(columns)}) VALUES ${attempts.map(() => `(${marks(columns.length)})`).join(', ')}`,
      params: attempts.flatMap((a) => [
        a.id,
        a.deliveryId,
        sqlDatetime(a.at),
        a.statusCode,
        a.error,
        a.durationMs,
      ]),
    };
  }

  /** A delivery's state after an attempt, if `owner` still holds it. */
  recordAttempt(result: AttemptResult): SqlStatement {
    const e = (name: string) => this.e(name);
    return {
      sql: `UPDATE ${e('delivery')} SET ${e('status')} = ?, ${e('attempts')} = ${e('attempts')} + 1, ${e('nextAttemptAt')} = ?, ${e('leaseOwner')} = NULL, ${e('leaseUntil')} = NULL, ${e('lastStatusCode')} = ?, ${e('lastError')} = ?, ${e('lastDurationMs')} = ?, ${e('deliveredAt')} = ? WHERE ${e('id')} = ? AND ${e('leaseOwner')} = ?`,
      params: [
        result.status,
        at(result.nextAttemptAt),
        result.lastStatusCode,
        result.lastError,
        result.lastDurationMs,
        at(result.deliveredAt),
        result.id,
        result.owner,
      ],
    };
  }

  /**
   * The states of several deliveries after their attempts, each if `owner` still holds it,
   * in one statement (MySQL/MariaDB, where each statement is a round trip).
   */
  recordAttempts(
    results: readonly AttemptResult[],
    owner: string,
  ): SqlStatement {
    const e = (name: string) => this.e(name);
    const params: unknown[] = [];
    const byId = (column: string, value: (r: AttemptResult) => unknown) => {
      for (const result of results) params.push(result.id, value(result));
      const whens = results.map(() => 'WHEN ? THEN ?').join(' ');
      return `${e(column)} = CASE ${e('id')} ${whens} END`;
    };
    const sets = [
      byId('status', (r) => r.status),
      `${e('attempts')} = ${e('attempts')} + 1`,
      byId('nextAttemptAt', (r) => at(r.nextAttemptAt)),
      `${e('leaseOwner')} = NULL, ${e('leaseUntil')} = NULL`,
      byId('lastStatusCode', (r) => r.lastStatusCode),
      byId('lastError', (r) => r.lastError),
      byId('lastDurationMs', (r) => r.lastDurationMs),
      byId('deliveredAt', (r) => at(r.deliveredAt)),
    ];
    params.push(...results.map((result) => result.id), owner);
    return {
      sql: `UPDATE ${e('delivery')} SET ${sets.join(', ')} WHERE ${e('id')} IN (${marks(results.length)}) AND ${e('leaseOwner')} = ?`,
      params,
    };
  }

  /**
   * Makes a delivery due now with its retry schedule started afresh (`attempts` keeps
   * counting), unless it changed meanwhile or is being sent.
   */
  retry(id: string, status: string, now: Date): SqlStatement {
    const e = (name: string) => this.e(name);
    return {
      sql: `UPDATE ${e('delivery')} SET ${e('status')} = 'pending', ${e('nextAttemptAt')} = ?, ${e('scheduleStart')} = ${e('attempts')}, ${e('leaseOwner')} = NULL, ${e('leaseUntil')} = NULL WHERE ${e('id')} = ? AND ${e('status')} = ? AND (${e('leaseUntil')} IS NULL OR ${e('leaseUntil')} < ?)`,
      params: [sqlDatetime(now), id, status, sqlDatetime(now)],
    };
  }

  // ---- metrics -----------------------------------------------------------------

  /**
   * Deliveries waiting to be sent or retried, by channel, counted among the first `cap`
   * found: the database counts, so a scrape never reads (and the process never decodes)
   * thousands of rows while a backlog is being drained.
   */
  backlogCounts(cap: number): SqlStatement {
    const e = (name: string) => this.e(name);
    return {
      sql: `SELECT ${e('channel')}, COUNT(*) AS ${e('waiting')} FROM (SELECT ${e('channel')} FROM ${e('delivery')} WHERE ${e('status')} IN (${this.claimable}) LIMIT ${Math.floor(cap)}) ${e('due')} GROUP BY ${e('channel')}`,
      params: [],
    };
  }

  /** Outbox events not yet expanded into deliveries, counted among the first `cap`. */
  eventsWaiting(cap: number): SqlStatement {
    const e = (name: string) => this.e(name);
    return {
      sql: `SELECT COUNT(*) AS ${e('waiting')} FROM (SELECT ${e('id')} FROM ${e('outbox_event')} LIMIT ${Math.floor(cap)}) ${e('waiting_events')}`,
      params: [],
    };
  }

  // ---- retention ---------------------------------------------------------------

  /**
   * The next deliveries by id after `after` and below `below` (the first id of the
   * retention cutoff's millisecond): a range of the primary key.
   */
  oldPage(after: string, below: string, limit: number): SqlStatement {
    const e = (name: string) => this.e(name);
    return {
      sql: `SELECT ${this.columns(['id', 'createdAt', 'leaseUntil'])} FROM ${e('delivery')} WHERE ${e('id')} > ? AND ${e('id')} < ? ORDER BY ${e('id')} LIMIT ${Math.floor(limit)}`,
      params: [after, below],
    };
  }

  /** The first deliveries of a webhook, by id (IDX_delivery_target_id). */
  webhookPage(
    webhookId: string,
    limit: number,
    channel: 'webhook' | 'chat' = 'webhook',
  ): SqlStatement {
    const e = (name: string) => this.e(name);
    return {
      sql: `SELECT ${e('id')} FROM ${e('delivery')} WHERE ${e('target')} = ? AND ${e('channel')} = '${channel}' ORDER BY ${e('id')} LIMIT ${Math.floor(limit)}`,
      params: [webhookId],
    };
  }

  /**
   * The deliveries of submissions being deleted (their attempts go by the foreign key),
   * along UQ_delivery_submission_target; the form keeps a stray id from reaching another.
   */
  deleteOfSubmissions(
    formId: string,
    submissionIds: readonly string[],
  ): SqlStatement {
    const e = (name: string) => this.e(name);
    return {
      sql: `DELETE FROM ${e('delivery')} WHERE ${e('submissionId')} IN (${marks(submissionIds.length)}) AND ${e('formId')} = ?`,
      params: [...submissionIds, formId],
    };
  }

  deleteAttemptsOf(deliveryIds: readonly string[]): SqlStatement {
    const e = (name: string) => this.e(name);
    return {
      sql: `DELETE FROM ${e('delivery_attempt')} WHERE ${e('deliveryId')} IN (${marks(deliveryIds.length)})`,
      params: [...deliveryIds],
    };
  }

  deleteDeliveries(ids: readonly string[]): SqlStatement {
    const e = (name: string) => this.e(name);
    return {
      sql: `DELETE FROM ${e('delivery')} WHERE ${e('id')} IN (${marks(ids.length)})`,
      params: [...ids],
    };
  }
}
