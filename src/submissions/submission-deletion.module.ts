import { Global, Module } from '@nestjs/common';
import { SubmissionDeletion } from './submission-deletion.js';
import { SubmissionRepository } from './submission.repository.js';

/**
 * The one deletion path of submissions, global so that the features keeping something
 * per submission register with it without importing the submissions module (and its
 * controllers) — the worker process has it too.
 */
@Global()
@Module({
  providers: [SubmissionRepository, SubmissionDeletion],
  exports: [SubmissionDeletion],
})
export class SubmissionDeletionModule {}
