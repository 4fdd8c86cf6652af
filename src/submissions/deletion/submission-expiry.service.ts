// Deleting a form's submissions that have outlived their time, for the sweeps that do it
// (form retention here, the spam folder's in spam/): batches along the keyset index, each
// deleted through SubmissionDeletionService (so their deliveries and files go too) in a turn of
// its own on the event loop (sweeps/batches.ts).
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { inBatches, type BatchOptions } from '../../sweeps/batches.js';
import { SubmissionDeletionService } from './submission-deletion.service.js';
import { SubmissionRepository } from '../submission.repository.js';

@Injectable()
export class SubmissionExpiryService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly submissions: SubmissionRepository,
    private readonly deletion: SubmissionDeletionService,
  ) {}

  /** How batches are sized on this database, stopping once `signal` is aborted. */
  batchOptions(signal?: AbortSignal): BatchOptions {
    return {
      signal,
      onEventLoop: this.dataSource.options.type === 'better-sqlite3',
    };
  }

  /**
   * Deletes the submissions of one folder of the form (spam, or clean) created before
   * `cutoff`; answers how many were deleted.
   */
  async deleteCreatedBefore(
    formId: string,
    spam: boolean,
    cutoff: Date,
    options: BatchOptions,
  ): Promise<number> {
    let deleted = 0;
    await inBatches(async (limit) => {
      const rows = await this.submissions.rows({
        formId,
        filters: { spam, to: cutoff },
        direction: 'ASC',
        limit,
        columns: ['id'],
      });
      deleted += await this.deletion.deleteIds(
        formId,
        rows.map((row) => row.id),
      );
      return rows.length;
    }, options);
    return deleted;
  }
}
