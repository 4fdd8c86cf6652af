// The one owner of the outbox tables — delivery, delivery_attempt and outbox_event: the
// commit queue's writers take the event's INSERT from here, the worker claims, records and
// expands, and the API reads and retries through here; the SQL comes from DeliverySql.
//
// On SQLite the worker's statements run straight on the connection, each write a short
// synchronous transaction whose commit does not wait for the disk (SqliteStatements):
// what they write is remade from what is durable should a power loss undo it, and the
// event loop is spared an fsync per claim. On MySQL/MariaDB they run in READ COMMITTED
// transactions whose locking reads skip rows another worker holds.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  DataSource,
  In,
  LessThan,
  type EntityManager,
  type FindOptionsWhere,
} from 'typeorm';
import type { SqlStatement } from '../../common/database/sql-statement.js';
import { SqliteStatements } from '../../common/database/sqlite-statements.js';
import { DeliveryAttempt } from './delivery-attempt.entity.js';
import { DeliverySql } from './delivery-sql.js';
import type {
  AttemptResult,
  GroupTake,
  NewAttempt,
} from './delivery-statement-inputs.js';
import {
  chosen,
  distinctGroups,
  leased,
  walkGroups,
  toOldRow,
  type DueGroup,
  type OldRow,
  type Row,
} from './delivery-rows.js';
import { Delivery } from './delivery.entity.js';
import {
  eventRow,
  parseEvent,
  type NewDelivery,
  type OutboxEntry,
  type PendingEvent,
} from '../outbox/outbox-entry.js';

/** How long a claim lasts unless renewed. */
export const LEASE_MS = 10_000;
/** Rows per INSERT of new deliveries. */
const INSERT_CHUNK = 500;
/** Deliveries whose new state one statement writes (MySQL/MariaDB). */
const RECORD_CHUNK = 100;

@Injectable()
export class DeliveryRepository {
  readonly sql: DeliverySql;
  private readonly sqlite: SqliteStatements | undefined;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    const isSqlite = dataSource.options.type === 'better-sqlite3';
    this.sql = new DeliverySql(isSqlite ? 'sqlite' : 'mysql');
    this.sqlite = isSqlite ? new SqliteStatements(dataSource) : undefined;
  }

  private query<T>({ sql, params }: SqlStatement): Promise<T> {
    return this.dataSource.query<T>(sql, params);
  }

  /** A read: straight on the connection on SQLite (see the file's header). */
  private async all<T>(statement: SqlStatement): Promise<T[]> {
    return this.sqlite
      ? this.sqlite.all<T>(statement)
      : this.query<T[]>(statement);
  }

  /** A READ COMMITTED transaction on MySQL/MariaDB (a locking read takes no gaps). */
  private mysqlTransaction<T>(
    work: (run: <R>(statement: SqlStatement) => Promise<R>) => Promise<T>,
  ): Promise<T> {
    return this.dataSource.transaction('READ COMMITTED', (manager) =>
      work(<R>({ sql, params }: SqlStatement) => manager.query<R>(sql, params)),
    );
  }

  // ---- what the commit queue writes -------------------------------------------------

  /**
   * The statement a commit batch adds its one event with, and its parameters for the
   * batch's entries (null when none of its submissions notifies).
   */
  eventInsert(): {
    sql: string;
    params(entries: readonly OutboxEntry[], now: Date): unknown[] | null;
  } {
    return {
      sql: this.sql.insertEvent(),
      params: (entries, now) => eventRow(entries, now),
    };
  }

  /**
   * Adds an event on its own (a submission that notifies later, once it is not spam), in
   * `manager`'s transaction when given (the change that makes it notify).
   */
  async addEvent(
    entries: readonly OutboxEntry[],
    manager?: EntityManager,
  ): Promise<void> {
    const params = eventRow(entries, new Date());
    if (params === null) return;
    await (manager ?? this.dataSource).query(this.sql.insertEvent(), params);
  }

  // ---- expansion -------------------------------------------------------------------

  /** The oldest events waiting to be expanded. */
  async nextEvents(limit: number): Promise<PendingEvent[]> {
    const rows = await this.all<Row>(this.sql.nextEvents(limit));
    return rows.map((row) => ({
      id: String(row.id),
      entries: parseEvent(row.submissions),
    }));
  }

  /**
   * Writes each event's deliveries and deletes the event, in one transaction; answers the
   * ids of the events it expanded. On MySQL/MariaDB an event another worker is expanding
   * right now is skipped (it will be gone, or expanded again harmlessly: the unique key
   * keeps one delivery per submission and target).
   */
  async expand(
    events: ReadonlyArray<{ id: string; deliveries: readonly NewDelivery[] }>,
  ): Promise<string[]> {
    if (events.length === 0) return [];
    const sqlite = this.sqlite;
    if (sqlite) {
      return sqlite.whenFree(() => {
        const rows = events.flatMap((event) => event.deliveries);
        for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
          sqlite.run(
            this.sql.insertDeliveries(rows.slice(i, i + INSERT_CHUNK)),
          );
        }
        const ids = events.map((event) => event.id);
        sqlite.run(this.sql.deleteEvents(ids));
        return ids;
      }, true);
    }
    return this.mysqlTransaction(async (run) => {
      const locked = new Set(
        (
          await run<Row[]>(this.sql.lockEvents(events.map((event) => event.id)))
        ).map((row) => String(row.id)),
      );
      const taken = events.filter((event) => locked.has(event.id));
      if (taken.length === 0) return [];
      const rows = taken.flatMap((event) => event.deliveries);
      for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
        await run(this.sql.insertDeliveries(rows.slice(i, i + INSERT_CHUNK)));
      }
      const ids = taken.map((event) => event.id);
      await run(this.sql.deleteEvents(ids));
      return ids;
    });
  }

  // ---- claims ----------------------------------------------------------------------

  /** Every (account, target) with a claimable delivery due by `now`. */
  async dueGroups(now: Date): Promise<DueGroup[]> {
    if (this.sqlite) return walkGroups(this.sqlite, this.sql, now);
    return distinctGroups(await this.query<Row[]>(this.sql.dueGroups(now)));
  }

  /**
   * Takes, for `owner`, up to `take` due deliveries of each group — the longest due
   * first, pending or failed alike — under a lease of LEASE_MS; answers them, longest due
   * first, as they now are.
   */
  async claim(
    owner: string,
    groups: readonly GroupTake[],
    now = new Date(),
  ): Promise<Delivery[]> {
    const wanted = groups.filter((group) => group.take > 0);
    if (wanted.length === 0) return [];
    const until = new Date(now.getTime() + LEASE_MS);
    const sqlite = this.sqlite;
    if (sqlite) {
      return sqlite.whenFree(() => {
        const rows = chosen(
          sqlite.all<Row>(this.sql.candidates(wanted, now)),
          wanted,
        );
        if (rows.length > 0) {
          sqlite.run(
            this.sql.lease(
              rows.map((row) => String(row.id)),
              owner,
              until,
            ),
          );
        }
        return leased(rows, owner, until);
      }, true);
    }
    return this.mysqlTransaction(async (run) => {
      const candidates = chosen(
        await run<Row[]>(this.sql.candidates(wanted, now)),
        wanted,
      );
      if (candidates.length === 0) return [];
      const order = new Map(candidates.map((row, i) => [String(row.id), i]));
      const rows = (
        await run<Row[]>(this.sql.lockCandidates([...order.keys()], now))
      ).sort((a, b) => order.get(String(a.id))! - order.get(String(b.id))!);
      if (rows.length === 0) return [];
      await run(
        this.sql.lease(
          rows.map((row) => String(row.id)),
          owner,
          until,
        ),
      );
      return leased(rows, owner, until);
    });
  }

  /** Extends the leases of deliveries `owner` still holds. */
  async renew(owner: string, ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.write(
      this.sql.renew(ids, owner, new Date(Date.now() + LEASE_MS)),
    );
  }

  /** Gives back claimed deliveries that will not be sent here: due now. */
  async release(owner: string, ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.write(this.sql.release(ids, owner, new Date()));
  }

  /**
   * Keeps the attempts and each delivery's new state (only where its worker still holds
   * it), in one transaction: on MySQL/MariaDB in one statement for many deliveries.
   */
  async record(
    attempts: readonly NewAttempt[],
    results: readonly AttemptResult[],
  ): Promise<void> {
    if (attempts.length === 0) return;
    const sqlite = this.sqlite;
    if (sqlite) {
      await sqlite.whenFree(() => {
        sqlite.run(this.sql.insertAttempts(attempts));
        for (const result of results) {
          sqlite.run(this.sql.recordAttempt(result));
        }
      }, true);
      return;
    }
    const byOwner = new Map<string, AttemptResult[]>();
    for (const result of results) {
      byOwner.set(result.owner, [...(byOwner.get(result.owner) ?? []), result]);
    }
    await this.mysqlTransaction(async (run) => {
      await run(this.sql.insertAttempts(attempts));
      for (const [owner, ofOwner] of byOwner) {
        for (let i = 0; i < ofOwner.length; i += RECORD_CHUNK) {
          await run(
            this.sql.recordAttempts(ofOwner.slice(i, i + RECORD_CHUNK), owner),
          );
        }
      }
    });
  }

  /** One relaxed write on SQLite (see the file's header), a plain one on MySQL. */
  private async write(statement: SqlStatement): Promise<void> {
    const sqlite = this.sqlite;
    if (sqlite) await sqlite.whenFree(() => sqlite.run(statement), true);
    else await this.query(statement);
  }

  // ---- the delivery log ------------------------------------------------------------

  /** Writes deliveries made outside a commit batch (a test event). */
  async insert(rows: readonly NewDelivery[]): Promise<void> {
    if (rows.length === 0) return;
    await this.query(this.sql.insertDeliveries(rows));
  }

  /** A form's deliveries, newest first, strictly before `cursor` (a delivery id). */
  page(
    formId: string,
    take: number,
    cursor?: string,
    webhookId?: string,
  ): Promise<Delivery[]> {
    const where: FindOptionsWhere<Delivery> = { formId };
    if (webhookId !== undefined) {
      where.channel = 'webhook';
      where.target = webhookId;
    }
    if (cursor !== undefined) where.id = LessThan(cursor);
    return this.dataSource
      .getRepository(Delivery)
      .find({ where, order: { id: 'DESC' }, take });
  }

  findInForm(formId: string, id: string): Promise<Delivery | null> {
    return this.dataSource.getRepository(Delivery).findOneBy({ id, formId });
  }

  /** The attempts of these deliveries, oldest first. */
  attempts(deliveryIds: readonly string[]): Promise<DeliveryAttempt[]> {
    if (deliveryIds.length === 0) return Promise.resolve([]);
    return this.dataSource.getRepository(DeliveryAttempt).find({
      where: { deliveryId: In([...deliveryIds]) },
      order: { at: 'ASC', id: 'ASC' },
    });
  }

  /** See DeliverySql.retry(); false when the delivery changed meanwhile. */
  async retry(id: string, status: string, now: Date): Promise<boolean> {
    const { sql, params } = this.sql.retry(id, status, now);
    const runner = this.dataSource.createQueryRunner();
    try {
      const result = await runner.query(sql, params, true);
      return Boolean(result.affected);
    } finally {
      await runner.release();
    }
  }

  // ---- retention -------------------------------------------------------------------

  /** See DeliverySql.oldPage(). */
  async oldPage(
    after: string,
    below: string,
    limit: number,
  ): Promise<OldRow[]> {
    return (await this.query<Row[]>(this.sql.oldPage(after, below, limit))).map(
      toOldRow,
    );
  }

  /** See DeliverySql.webhookPage() (a chat channel's too). */
  async webhookPage(
    webhookId: string,
    limit: number,
    channel: 'webhook' | 'chat' = 'webhook',
  ): Promise<string[]> {
    const statement = this.sql.webhookPage(webhookId, limit, channel);
    return (await this.query<Row[]>(statement)).map((row) => String(row.id));
  }

  /** Deletes the submissions' deliveries in `manager`'s transaction (their deletion's). */
  async deleteOfSubmissions(
    manager: EntityManager,
    formId: string,
    ids: readonly string[],
  ): Promise<void> {
    const { sql, params } = this.sql.deleteOfSubmissions(formId, ids);
    await manager.query(sql, params);
  }

  /** Deliveries to send or retry by channel, among at most `cap`: the backlog, bounded. */
  async backlogCounts(cap: number): Promise<Map<string, number>> {
    type Counted = { channel: string; waiting: number | string };
    const rows = await this.all<Counted>(this.sql.backlogCounts(cap));
    return new Map(rows.map((row) => [row.channel, Number(row.waiting)]));
  }

  /** Outbox events waiting to be expanded, among at most `cap`. */
  async eventsWaiting(cap: number): Promise<number> {
    type Counted = { waiting: number | string };
    const rows = await this.all<Counted>(this.sql.eventsWaiting(cap));
    return Number(rows[0]?.waiting ?? 0);
  }

  /** Deletes deliveries with their attempts, in one transaction; answers the counts. */
  async deleteWithAttempts(
    ids: readonly string[],
  ): Promise<{ deliveries: number; attempts: number }> {
    if (ids.length === 0) return { deliveries: 0, attempts: 0 };
    return this.dataSource.transaction(async (manager) => {
      const run = async ({ sql, params }: SqlStatement) =>
        (
          (await manager.queryRunner!.query(sql, params, true)) as {
            affected?: number;
          }
        ).affected ?? 0;
      const attempts = await run(this.sql.deleteAttemptsOf(ids));
      const deliveries = await run(this.sql.deleteDeliveries(ids));
      return { deliveries, attempts };
    });
  }
}
