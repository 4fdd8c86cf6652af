// The one path by which stored submissions are deleted — one, a date range, an erasure,
// retention — so that what belongs to a submission goes with it. Features that keep
// something per submission (the notification deliveries; stored files) register a
// dependent here when their module starts; submissions imports none of them.
import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AuditLog } from '../audit/audit-log.service.js';
import { SubmissionRepository } from './submission.repository.js';

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

@Injectable()
export class SubmissionDeletion {
  private readonly logger = new Logger('SubmissionDeletion');
  private readonly dependents: SubmissionDependent[] = [];

  constructor(
    private readonly submissions: SubmissionRepository,
    private readonly auditLog: AuditLog,
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
}
