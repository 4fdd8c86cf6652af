// What the commit queue hands to the database, and what it gets back. One writer per
// dialect: mysql-submission-writer.ts (one multi-row INSERT through the driver) and
// sqlite-submission-writer.ts (one transaction of prepared statements).
//
// A batch is its submissions plus what is written with them in the same transaction: the
// one outbox event of those that notify, the honeypot's counts. Whatever else must commit
// with a submission joins the batch the same way: a field of CommitItem, written by each
// writer in the batch's transaction after the submissions it belongs to.
import type { StoredFileRow } from '../../files/stored-file-sql.js';
import type { NewIdempotencyRecord } from '../../idempotency/idempotency.store.js';
import type { OutboxEntry } from '../../notifications/outbox/outbox-entry.js';
import { CounterChanges } from '../../submissions/counters/form-counters.js';

/** A submission row as the submission table stores it. */
export interface NewSubmission {
  id: string;
  formId: string;
  /** The validated fields, already serialised as JSON. */
  data: string;
  ip: string | null;
  userAgent: string | null;
  origin: string | null;
  createdAt: Date;
  /** Stored in the spam folder (then it has no deliveries). */
  spam: boolean;
  /** The reasons as JSON text when spam, else null. */
  spamReasons: string | null;
}

/**
 * One accepted submission and what must be committed with it, in the same transaction.
 */
export interface CommitItem {
  submission: NewSubmission;
  /**
   * Present when the submission notifies (its form has targets): it is listed in the
   * batch's outbox event, which the worker expands into its deliveries.
   */
  outbox?: OutboxEntry;
  /**
   * Present when the request carried an Idempotency-Key: its record, written before the
   * submission; when the key is already taken (another request with it committed first,
   * on any instance), the submission is not written and the item's outcome is 'key-taken'.
   */
  idempotency?: NewIdempotencyRecord;
  /**
   * The submission's uploaded files (their objects already durable in the file storage):
   * their rows are written after the submission's, in its transaction.
   */
  files?: StoredFileRow[];
}

/** How a writer adds the batch's outbox event (DeliveryRepository.eventInsert()). */
export interface OutboxEventStatement {
  sql: string;
  /** Its parameters for the stored submissions that notify; null when there are none. */
  params(entries: readonly OutboxEntry[], now: Date): unknown[] | null;
}

export interface CommitBatch {
  items: CommitItem[];
  /** Posts the honeypot caught since the last batch, per form (a statistic, not acknowledged). */
  honeypotHits: ReadonlyMap<string, number>;
}

/**
 * What became of one item: committed, refused because its form no longer exists (deleted
 * a moment ago), not written because its Idempotency-Key was taken, or failed on its own
 * for another reason. A failure of the whole batch — the database away — is thrown instead.
 */
export type ItemOutcome =
  'stored' | 'form-gone' | 'key-taken' | { error: unknown };

export interface SubmissionWriter {
  /** Batches this writer may have in progress at once. */
  readonly parallelBatches: number;
  /** false while the batch cannot start yet (SQLite: another transaction is open). */
  canWrite(): boolean;
  write(batch: CommitBatch): Promise<ItemOutcome[]> | ItemOutcome[];
  /** Lets go of what the writer holds (its connections); called once, at shutdown. */
  close?(): Promise<void>;
}

/** The outbox entries of the items stored. */
export function storedEntries(
  items: readonly CommitItem[],
  outcomes: readonly ItemOutcome[],
): OutboxEntry[] {
  const entries: OutboxEntry[] = [];
  items.forEach((item, i) => {
    if (item.outbox !== undefined && outcomes[i] === 'stored') {
      entries.push(item.outbox);
    }
  });
  return entries;
}

/**
 * What the stored items add to their forms' counters: each is `new`, in its folder. Forms
 * and days in a fixed order, so parallel batches lock counter rows in the same order.
 */
export function storedCounts(
  items: readonly CommitItem[],
  outcomes: readonly ItemOutcome[],
): CounterChanges {
  const changes = new CounterChanges();
  items.forEach((item, i) => {
    if (outcomes[i] !== 'stored') return;
    const s = item.submission;
    changes.row(
      { formId: s.formId, spam: s.spam, status: 'new', createdAt: s.createdAt },
      1,
    );
  });
  return changes.sorted();
}
