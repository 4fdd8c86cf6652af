// What the commit queue hands to the database, and what it gets back. One writer per
// dialect: mysql-submission-writer.ts (one multi-row INSERT through the driver) and
// sqlite-submission-writer.ts (one transaction of prepared statements).
import type { NewDelivery } from '../../notifications/outbox.js';

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
}

/**
 * One accepted submission and every row that must be committed with it, in the same
 * transaction (the notification deliveries of its form, when there are any).
 */
export interface CommitItem {
  submission: NewSubmission;
  /** One per enabled notification target of the form; absent or empty when there is none. */
  deliveries?: NewDelivery[];
}

export interface CommitBatch {
  items: CommitItem[];
  /** Posts the honeypot caught since the last batch, per form (a statistic, not acknowledged). */
  honeypotHits: ReadonlyMap<string, number>;
}

/**
 * What became of one item: committed, refused because its form no longer exists (deleted
 * a moment ago), or failed on its own for another reason. A failure of the whole batch —
 * the database away — is thrown instead.
 */
export type ItemOutcome = 'stored' | 'form-gone' | { error: unknown };

export interface SubmissionWriter {
  /** Batches this writer may have in progress at once. */
  readonly parallelBatches: number;
  /** false while the batch cannot start yet (SQLite: another transaction is open). */
  canWrite(): boolean;
  write(batch: CommitBatch): Promise<ItemOutcome[]> | ItemOutcome[];
}
