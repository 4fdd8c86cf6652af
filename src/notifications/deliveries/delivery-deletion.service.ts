// A submission's deliveries (and, through the foreign key, their attempts) go with it:
// registered with the one deletion path of submissions. The statement is DeliveryRepository's.
import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  SubmissionDeletionService,
  type SubmissionDependent,
} from '../../submissions/deletion/submission-deletion.service.js';
import { DeliveryRepository } from './delivery.repository.js';

@Injectable()
export class DeliveryDeletionService
  implements SubmissionDependent, OnModuleInit
{
  readonly name = 'deliveries';

  constructor(
    private readonly deletion: SubmissionDeletionService,
    private readonly deliveries: DeliveryRepository,
  ) {}

  onModuleInit(): void {
    this.deletion.register(this);
  }

  async deleteWith(
    manager: EntityManager,
    formId: string,
    submissionIds: readonly string[],
  ): Promise<void> {
    await this.deliveries.deleteOfSubmissions(manager, formId, submissionIds);
  }
}
