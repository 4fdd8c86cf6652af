// A submission's deliveries (and, through the foreign key, their attempts) go with it:
// registered with the one deletion path of submissions.
import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  SubmissionDeletion,
  type SubmissionDependent,
} from '../submissions/submission-deletion.js';

@Injectable()
export class SubmissionDeliveries implements SubmissionDependent, OnModuleInit {
  readonly name = 'deliveries';

  constructor(private readonly deletion: SubmissionDeletion) {}

  onModuleInit(): void {
    this.deletion.register(this);
  }

  async deleteWith(
    manager: EntityManager,
    formId: string,
    submissionIds: readonly string[],
  ): Promise<void> {
    const list = submissionIds.map(() => '?').join(', ');
    // Along IDX_delivery_submission; the formId keeps a stray id from reaching another form.
    await manager.query(
      `DELETE FROM delivery WHERE submissionId IN (${list}) AND formId = ?`,
      [...submissionIds, formId],
    );
  }
}
