// The commit queue's writer on MySQL/MariaDB: straight through the mysql2 pool that TypeORM
// opened, with fixed SQL and driver escaping — no query builder on the hot path.
import type { Pool, PoolConnection, QueryError } from 'mysql2';
import {
  isDatabaseUnavailable,
  isDeadlock,
  isMissingReference,
} from '../../common/database/driver-errors.js';
import {
  type CommitBatch,
  type CommitItem,
  type ItemOutcome,
  type SubmissionWriter,
} from './submission-writer.js';

const INSERT_SUBMISSIONS =
  'INSERT INTO `submission` (`id`, `formId`, `data`, `ip`, `userAgent`, `origin`, `createdAt`) VALUES ?';
const INSERT_DELIVERIES =
  'INSERT INTO `delivery` (`id`, `formId`, `submissionId`, `channel`, `target`, `event`, `payload`, `nextAttemptAt`, `createdAt`, `status`, `attempts`, `scheduleStart`) VALUES ?';
const COUNT_HONEYPOT =
  'UPDATE `form` SET `honeypotHits` = `honeypotHits` + ? WHERE `id` = ?';

/** Tries of a batch's transaction that InnoDB chose as a deadlock victim. */
const DEADLOCK_ATTEMPTS = 3;

type Row = [
  string,
  string,
  string,
  string | null,
  string | null,
  string | null,
  Date,
];

function rowOf({ submission: s }: CommitItem): Row {
  return [s.id, s.formId, s.data, s.ip, s.userAgent, s.origin, s.createdAt];
}

function deliveryRowsOf(items: CommitItem[]): unknown[][] {
  const rows: unknown[][] = [];
  for (const item of items) {
    for (const d of item.deliveries ?? []) {
      rows.push([
        d.id,
        d.formId,
        d.submissionId,
        d.channel,
        d.target,
        d.event,
        d.payload,
        d.createdAt,
        d.createdAt,
        'pending',
        0,
        0,
      ]);
    }
  }
  return rows;
}

/** Batches written at once, each on its own pooled connection (the rest serve the API). */
export const MYSQL_PARALLEL_BATCHES = 4;

export class MysqlSubmissionWriter implements SubmissionWriter {
  readonly parallelBatches = MYSQL_PARALLEL_BATCHES;
  constructor(
    private readonly pool: Pool,
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

  /**
   * All items in one statement (and their deliveries in a second, in one transaction with
   * it); when that fails for a row's sake, item by item. A batch without deliveries needs
   * no transaction: its one statement is atomic.
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
      if (isDatabaseUnavailable(error) || items.length === 1) {
        if (items.length === 1 && !isDatabaseUnavailable(error)) {
          return [isMissingReference(error) ? 'form-gone' : { error }];
        }
        throw error;
      }
    }
    const outcomes: ItemOutcome[] = [];
    for (const item of items) {
      try {
        await this.insertAll(connection, [item]);
        outcomes.push('stored');
      } catch (error) {
        if (isDatabaseUnavailable(error)) throw error;
        outcomes.push(isMissingReference(error) ? 'form-gone' : { error });
      }
    }
    return outcomes;
  }

  private async insertAll(
    connection: PoolConnection,
    items: CommitItem[],
  ): Promise<void> {
    const deliveries = deliveryRowsOf(items);
    if (deliveries.length === 0) {
      await this.run(connection, INSERT_SUBMISSIONS, [items.map(rowOf)]);
      return;
    }
    for (let attempt = 1; ; attempt++) {
      await this.run(connection, 'START TRANSACTION', []);
      try {
        await this.run(connection, INSERT_SUBMISSIONS, [items.map(rowOf)]);
        await this.run(connection, INSERT_DELIVERIES, [deliveries]);
        await this.run(connection, 'COMMIT', []);
        return;
      } catch (error) {
        if (!isDatabaseUnavailable(error)) {
          await this.run(connection, 'ROLLBACK', []);
        }
        // InnoDB rolled the whole transaction back to break a deadlock with a worker's
        // claim: nothing of it was written, so it is simply run again.
        if (isDeadlock(error) && attempt < DEADLOCK_ATTEMPTS) continue;
        throw error;
      }
    }
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
