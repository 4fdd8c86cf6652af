// The commit queue's writer on SQLite: one transaction of prepared statements per batch,
// on the better-sqlite3 connection TypeORM opened. better-sqlite3 is synchronous, so a
// batch holds the event loop for its length: batches are bounded by the queue (500 rows).
import type { Database, Statement, Transaction } from 'better-sqlite3';
import {
  isConstraintViolation,
  isMissingReference,
  isUniqueViolation,
} from '../../common/database/driver-errors.js';
import {
  storedFileValues,
  StoredFileSql,
} from '../../files/stored-file-sql.js';
import { FormCounterSql } from '../../submissions/counters/form-counter-sql.js';
import { sqlDatetime } from '../../common/database/sql-dates.js';
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

const SQL = new CommitSql('sqlite');
const INSERT_SUBMISSION = SQL.insertSubmissions;
const COUNT_HONEYPOT = SQL.countHoneypot;
const INSERT_IDEMPOTENCY = SQL.insertIdempotency;
const DELETE_IDEMPOTENCY = SQL.deleteIdempotency;
const INSERT_FILE = new StoredFileSql('sqlite').insert(1);
const COUNTER_SQL = new FormCounterSql('sqlite');

export class SqliteSubmissionWriter implements SubmissionWriter {
  /** One connection, one transaction at a time. */
  readonly parallelBatches = 1;
  private readonly insertSubmissionRow: Statement;
  private readonly countHoneypot: Statement;
  private readonly insertEvent: Statement;
  private readonly insertIdempotency: Statement;
  private readonly deleteIdempotency: Statement;
  private readonly insertFile: Statement;
  private readonly countForm: Statement;
  private readonly countDay: Statement;
  private readonly transaction: Transaction<
    (batch: CommitBatch) => ItemOutcome[]
  >;

  constructor(
    private readonly db: Database,
    private readonly outbox: OutboxEventStatement,
  ) {
    this.insertSubmissionRow = db.prepare(INSERT_SUBMISSION);
    this.countHoneypot = db.prepare(COUNT_HONEYPOT);
    this.insertEvent = db.prepare(outbox.sql);
    this.insertIdempotency = db.prepare(INSERT_IDEMPOTENCY);
    this.deleteIdempotency = db.prepare(DELETE_IDEMPOTENCY);
    this.insertFile = db.prepare(INSERT_FILE);
    this.countForm = db.prepare(COUNTER_SQL.adjust(1));
    this.countDay = db.prepare(COUNTER_SQL.adjustDays(1));
    this.transaction = db.transaction((batch: CommitBatch) => {
      const outcomes = batch.items.map((item) => this.insert(item));
      // The batch's one outbox event, listing its stored submissions that notify.
      const event = this.outbox.params(
        storedEntries(batch.items, outcomes),
        new Date(),
      );
      if (event !== null) this.insertEvent.run(...event);
      // The forms' counters and per-day counts: a statement per form (and day) per batch.
      const counts = storedCounts(batch.items, outcomes);
      for (const row of counts.formRows()) {
        this.countForm.run(...COUNTER_SQL.adjustRow(row));
      }
      for (const row of counts.dayRows()) this.countDay.run(...row);
      for (const [formId, hits] of batch.honeypotHits) {
        this.countHoneypot.run(hits, formId);
      }
      return outcomes;
    });
  }

  /**
   * Another transaction on the same connection (TypeORM's, across awaits) would swallow
   * this batch as a savepoint and could roll it back: wait until it has ended.
   */
  canWrite(): boolean {
    return !this.db.inTransaction;
  }

  write(batch: CommitBatch): ItemOutcome[] {
    return this.transaction.immediate(batch);
  }

  /**
   * A row that fails alone (its form just deleted) is undone alone: the others commit. A
   * taken Idempotency-Key writes nothing.
   */
  private insert(item: CommitItem): ItemOutcome {
    const record = item.idempotency;
    if (record !== undefined) {
      try {
        this.insertIdempotency.run(
          record.id,
          record.fingerprint,
          record.status,
          record.response,
          sqlDatetime(record.createdAt),
          sqlDatetime(record.expiresAt),
        );
      } catch (error) {
        if (isUniqueViolation(error)) return 'key-taken';
        throw error;
      }
    }
    const outcome = this.insertSubmission(item);
    if (outcome !== 'stored' && record !== undefined) {
      this.deleteIdempotency.run(record.id);
    }
    return outcome;
  }

  private insertSubmission({ submission: s, files }: CommitItem): ItemOutcome {
    try {
      this.insertSubmissionRow.run(
        s.id,
        s.formId,
        s.data,
        s.ip,
        s.userAgent,
        s.origin,
        sqlDatetime(s.createdAt),
        s.spam ? 1 : 0,
        s.spamReasons,
      );
    } catch (error) {
      if (isMissingReference(error)) return 'form-gone';
      // A constraint is this row's problem; anything else (busy, disk full, I/O) the batch's.
      if (isConstraintViolation(error)) return { error };
      throw error;
    }
    // After its submission (whose form exists, then): a failure here fails the batch.
    for (const file of files ?? []) {
      this.insertFile.run(...storedFileValues(file, 'sqlite'));
    }
    return 'stored';
  }
}
