// The one path by which stored submissions are deleted — one, a date range, an erasure,
// retention — so that what belongs to a submission goes with it. Features that keep
// something per submission (the notification deliveries; stored files) register a
// dependent here when their module starts; submissions imports none of them.
import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuditDetails } from '../../audit/audit-hash.js';
import { AuditLogService } from '../../audit/audit-log.service.js';
import type { AuditRun } from '../../audit/audit-run.js';
import { SubmissionRepository } from '../submission.repository.js';

export interface SubmissionDependent {
  /** Names the dependent in the log. */
  readonly name: string;
  /**
   * Deletes what belongs to these submissions of the form, in the transaction that then
   * deletes the submissions (database work only: no other I/O, since on SQLite the
   * transaction holds the event loop until it ends).
   */
  deleteWith?(
    manager: EntityManager,
    formId: string,
    submissionIds: readonly string[],
  ): Promise<void>;
  /**
   * After the submissions are committed gone: what lives outside the database (stored
   * files). A failure is logged and left to that feature's own orphan sweep.
   */
  afterDelete?(formId: string, submissionIds: readonly string[]): Promise<void>;
}

/** One batch of a deletion in batches: ids of one form, and whether it is the last. */
export interface DeletionBatch {
  formId: string;
  /** Empty: nothing to delete this time (the run goes on, and says it is alive). */
  ids: readonly string[];
  last?: boolean;
}

/** What a deletion in batches has deleted so far. */
export interface DeletionProgress {
  /** Submissions deleted. */
  count: number;
  /** Forms that had at least one of them. */
  forms: number;
}

/**
 * The batches with the last non-empty one marked `last`, one batch read ahead (for batches
 * a deletion does not change, as an erasure's windows along the keyset index).
 */
export async function* lastMarked(
  batches: AsyncIterable<DeletionBatch>,
): AsyncGenerator<DeletionBatch> {
  let held: DeletionBatch | undefined;
  for await (const batch of batches) {
    if (batch.ids.length === 0) {
      yield batch;
      continue;
    }
    if (held) yield held;
    held = batch;
  }
  if (held) yield { ...held, last: true };
}

@Injectable()
export class SubmissionDeletionService {
  private readonly logger = new Logger('SubmissionDeletion');
  private readonly dependents: SubmissionDependent[] = [];

  constructor(
    private readonly submissions: SubmissionRepository,
    private readonly auditLog: AuditLogService,
  ) {}

  register(dependent: SubmissionDependent): void {
    this.dependents.push(dependent);
  }

  /** The registered dependents' names, in registration order. */
  get names(): string[] {
    return this.dependents.map((dependent) => dependent.name);
  }

  /**
   * Deletes the listed submissions of a form with what belongs to them, in one
   * transaction; answers how many submissions were deleted. Callers keep `ids` to a
   * batch (at most a few thousand).
   */
  async deleteIds(
    formId: string,
    ids: readonly string[],
    during?: (manager: EntityManager, deleted: number) => Promise<unknown>,
  ): Promise<number> {
    if (ids.length === 0) return 0;
    const deleted = await this.auditLog.transaction(async (manager) => {
      for (const dependent of this.dependents) {
        await dependent.deleteWith?.(manager, formId, ids);
      }
      const count = await this.submissions.deleteIn(manager, formId, ids);
      // What the caller records with the deletion (its audit event), when it deleted any.
      if (count > 0) await during?.(manager, count);
      return count;
    });
    for (const dependent of this.dependents) {
      if (!dependent.afterDelete) continue;
      try {
        await dependent.afterDelete(formId, ids);
      } catch (error) {
        this.logger.warn(
          `Could not delete the ${dependent.name} of ${ids.length} deleted submissions: ${(error as Error).message}`,
        );
      }
    }
    return deleted;
  }

  /**
   * Deletes batch after batch as one change with one audit event (docs/audit.md#changes-in-batches):
   * `run` is brought up to date in every batch's transaction and chained in the one that
   * finishes the deletion — the batch marked `last`, or a transaction of its own after the
   * batches when none was. Nothing deleted: no event (the caller may record one). A failed
   * batch rolls back alone; the event then says what the committed ones deleted.
   */
  async deleteBatches(
    batches: AsyncIterable<DeletionBatch> | Iterable<DeletionBatch>,
    run: AuditRun,
    details: (progress: DeletionProgress) => AuditDetails,
  ): Promise<DeletionProgress> {
    let count = 0;
    const forms = new Set<string>();
    let finished = false;
    try {
      for await (const batch of batches) {
        if (batch.ids.length === 0) {
          await run.keepAlive();
          continue;
        }
        count += await this.deleteIds(batch.formId, batch.ids, (manager, n) => {
          forms.add(batch.formId);
          const now = details({ count: count + n, forms: forms.size });
          if (!batch.last) return run.step(manager, now);
          finished = true;
          return run.finish(manager, now);
        });
        if (batch.last) break;
      }
      if (!finished && run.started) {
        await run.finishAlone(details({ count, forms: forms.size }));
      }
    } catch (error) {
      // What committed keeps its event; were this to fail too, the audit sweep chains it.
      await run
        .abandon()
        .catch((closing: unknown) =>
          this.logger.warn(
            `Could not close the audit event of a deletion that failed: ${(closing as Error).message}`,
          ),
        );
      throw error;
    }
    return { count, forms: forms.size };
  }
}
