// The commit queue's writer on MySQL/MariaDB: straight through a small mysql2 pool of its
// own, with fixed SQL and driver escaping — no query builder on the hot path.
//
// A batch is one round trip: `START TRANSACTION; INSERT …; [INSERT <event>;] <the forms'
// counters>; COMMIT` sent as one multi-statement query — the reason this pool is its own, the only one that accepts
// several statements (it only ever runs the fixed statements below, values escaped by the
// driver).
import type { Pool, PoolConnection, QueryError } from 'mysql2';
import {
  isDatabaseUnavailable,
  isDeadlock,
  isMissingReference,
  isUniqueViolation,
} from '../../common/database/driver-errors.js';
import { storedFileValues } from '../../files/stored-file-sql.js';
import { FormCounterSql } from '../../submissions/counters/form-counter-sql.js';
import {
  storedEntries,
  type CommitBatch,
  type CommitItem,
  type ItemOutcome,
  type OutboxEventStatement,
  type SubmissionWriter,
  storedCounts,
} from './submission-writer.js';
import { CommitSql } from './commit-sql.js';

/** The counter statements of the stored items, with their values (none when nothing counts). */
function counterStatements(
  items: readonly CommitItem[],
  outcomes: readonly ItemOutcome[],
): { statements: string[]; values: unknown[] } {
  const counts = storedCounts(items, outcomes);
  const forms = counts.formRows().map((row) => COUNTER_SQL.adjustRow(row));
  const days = counts.dayRows();
  const statements: string[] = [];
  const values: unknown[] = [];
  if (forms.length > 0) {
    statements.push(COUNT_FORMS);
    values.push(forms);
  }
  if (days.length > 0) {
    statements.push(COUNT_DAYS);
    values.push(days);
  }
  return { statements, values };
}

const SQL = new CommitSql('mysql');
const INSERT_SUBMISSIONS = SQL.insertSubmissions;
const COUNT_HONEYPOT = SQL.countHoneypot;
const INSERT_IDEMPOTENCY = SQL.insertIdempotency;
const DELETE_IDEMPOTENCY = SQL.deleteIdempotency;
const COUNTER_SQL = new FormCounterSql('mysql');
const COUNT_FORMS = COUNTER_SQL.adjustWith('?');
const COUNT_DAYS = COUNTER_SQL.adjustDaysWith('?');
const INSERT_FILES = SQL.insertFiles;

/** Tries of a batch's transaction that InnoDB chose as a deadlock victim. */
const DEADLOCK_ATTEMPTS = 3;

/** Batches written at once, each on its own pooled connection. */
export const MYSQL_PARALLEL_BATCHES = 4;

type Row = [
  string,
  string,
  string,
  string | null,
  string | null,
  string | null,
  Date,
  boolean,
  string | null,
];

/** The Idempotency-Key rows of the items that carry one. */
function idempotencyRows(items: readonly CommitItem[]): unknown[][] {
  return items.flatMap(({ idempotency: r }) =>
    r
      ? [[r.id, r.fingerprint, r.status, r.response, r.createdAt, r.expiresAt]]
      : [],
  );
}

/** The stored_file rows of the items' uploaded files. */
function fileRows(items: readonly CommitItem[]): unknown[][] {
  return items.flatMap((item) =>
    (item.files ?? []).map((file) => storedFileValues(file, 'mysql')),
  );
}

function rowOf({ submission: s }: CommitItem): Row {
  return [
    s.id,
    s.formId,
    s.data,
    s.ip,
    s.userAgent,
    s.origin,
    s.createdAt,
    s.spam,
    s.spamReasons,
  ];
}

export class MysqlSubmissionWriter implements SubmissionWriter {
  readonly parallelBatches = MYSQL_PARALLEL_BATCHES;

  constructor(
    /** A pool of its own, with `multipleStatements` on. */
    private readonly pool: Pool,
    private readonly outbox: OutboxEventStatement,
    /** Longest a statement may run before its connection is given up. */
    private readonly statementTimeoutMs: number,
  ) {}

  canWrite(): boolean {
    return true;
  }

  async write(batch: CommitBatch): Promise<ItemOutcome[]> {
    const connection = await this.connection();
    let healthy = true;
    try {
      const outcomes = await this.insert(connection, batch.items);
      for (const [formId, hits] of batch.honeypotHits) {
        await this.run(connection, COUNT_HONEYPOT, [hits, formId]);
      }
      return outcomes;
    } catch (error) {
      healthy = !isDatabaseUnavailable(error);
      throw error;
    } finally {
      // A connection that timed out or broke is not handed to the next request.
      if (healthy) connection.release();
      else connection.destroy();
    }
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.pool.end(() => resolve()));
  }

  /**
   * All items at once; when that fails for a row's sake, item by item in one transaction
   * (InnoDB undoes only the statement that failed), so only that row fails.
   */
  private async insert(
    connection: PoolConnection,
    items: CommitItem[],
  ): Promise<ItemOutcome[]> {
    if (items.length === 0) return [];
    try {
      await this.insertAll(connection, items);
      return items.map(() => 'stored');
    } catch (error) {
      if (isDatabaseUnavailable(error)) throw error;
      if (items.length === 1) {
        if (items[0].idempotency !== undefined && isUniqueViolation(error)) {
          return ['key-taken'];
        }
        return [isMissingReference(error) ? 'form-gone' : { error }];
      }
    }
    return this.insertOneByOne(connection, items);
  }

  /**
   * One round trip: the INSERT, in one transaction with the batch's Idempotency-Key rows
   * (written first) and its event, if any.
   */
  private async insertAll(
    connection: PoolConnection,
    items: CommitItem[],
  ): Promise<void> {
    const rows = [items.map(rowOf)];
    const event = this.outbox.params(
      items.flatMap((item) => (item.outbox ? [item.outbox] : [])),
      new Date(),
    );
    const keys = idempotencyRows(items);
    const files = fileRows(items);
    // The forms' counters commit with their submissions: always one transaction.
    const counts = counterStatements(
      items,
      items.map(() => 'stored'),
    );
    const statements = [
      'START TRANSACTION',
      ...(keys.length > 0 ? [INSERT_IDEMPOTENCY] : []),
      INSERT_SUBMISSIONS,
      ...(files.length > 0 ? [INSERT_FILES] : []),
      ...(event !== null ? [this.outbox.sql] : []),
      ...counts.statements,
      'COMMIT',
    ];
    const sql = statements.join('; ');
    const values = [
      ...(keys.length > 0 ? [keys] : []),
      ...rows,
      ...(files.length > 0 ? [files] : []),
      ...(event ?? []),
      ...counts.values,
    ];
    for (let attempt = 1; ; attempt++) {
      try {
        await this.run(connection, sql, values);
        return;
      } catch (error) {
        await this.rollback(connection, error);
        // InnoDB rolled the whole transaction back to break a deadlock: nothing of it was
        // written, so it is simply run again.
        if (isDeadlock(error) && attempt < DEADLOCK_ATTEMPTS) continue;
        throw error;
      }
    }
  }

  private async insertOneByOne(
    connection: PoolConnection,
    items: CommitItem[],
  ): Promise<ItemOutcome[]> {
    await this.run(connection, 'START TRANSACTION', []);
    try {
      const outcomes: ItemOutcome[] = [];
      for (const item of items) {
        outcomes.push(await this.insertOne(connection, item));
      }
      const event = this.outbox.params(
        storedEntries(items, outcomes),
        new Date(),
      );
      if (event !== null) await this.run(connection, this.outbox.sql, event);
      const counts = counterStatements(items, outcomes);
      for (let i = 0; i < counts.statements.length; i++) {
        await this.run(connection, counts.statements[i], [counts.values[i]]);
      }
      await this.run(connection, 'COMMIT', []);
      return outcomes;
    } catch (error) {
      await this.rollback(connection, error);
      throw error;
    }
  }

  /** One item inside insertOneByOne's transaction: its key's row first, then the submission. */
  private async insertOne(
    connection: PoolConnection,
    item: CommitItem,
  ): Promise<ItemOutcome> {
    const keys = idempotencyRows([item]);
    if (keys.length > 0) {
      try {
        await this.run(connection, INSERT_IDEMPOTENCY, [keys]);
      } catch (error) {
        if (isUniqueViolation(error)) return 'key-taken';
        throw error;
      }
    }
    try {
      await this.run(connection, INSERT_SUBMISSIONS, [[rowOf(item)]]);
    } catch (error) {
      if (isDatabaseUnavailable(error) || isDeadlock(error)) throw error;
      if (item.idempotency !== undefined) {
        await this.run(connection, DELETE_IDEMPOTENCY, [item.idempotency.id]);
      }
      return isMissingReference(error) ? 'form-gone' : { error };
    }
    // After its submission (whose form exists, then): a failure here fails the batch.
    const files = fileRows([item]);
    if (files.length > 0) await this.run(connection, INSERT_FILES, [files]);
    return 'stored';
  }

  /** Ends an open transaction after a failure, unless the connection itself failed. */
  private async rollback(
    connection: PoolConnection,
    error: unknown,
  ): Promise<void> {
    if (isDatabaseUnavailable(error)) return;
    await this.run(connection, 'ROLLBACK', []);
  }

  private connection(): Promise<PoolConnection> {
    return new Promise((resolve, reject) => {
      this.pool.getConnection((error, connection) =>
        error ? reject(error) : resolve(connection),
      );
    });
  }

  private run(
    connection: PoolConnection,
    sql: string,
    values: unknown[],
  ): Promise<void> {
    return new Promise((resolve, reject) => {
      connection.query(
        { sql, values, timeout: this.statementTimeoutMs },
        (error: QueryError | null) => (error ? reject(error) : resolve()),
      );
    });
  }
}
