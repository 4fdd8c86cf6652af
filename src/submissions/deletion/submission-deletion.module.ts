import { Global, Module } from '@nestjs/common';
import { SubmissionDeletionService } from './submission-deletion.service.js';
import { SubmissionRepository } from '../submission.repository.js';

/**
 * The one deletion path of submissions, global so that the features keeping something
 * per submission register with it without importing the submissions module (and its
 * controllers) — the worker process has it too.
 */
@Global()
@Module({
  providers: [SubmissionRepository, SubmissionDeletionService],
  exports: [SubmissionDeletionService],
})
export class SubmissionDeletionModule {}
