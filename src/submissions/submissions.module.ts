import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { FormsModule } from '../forms/forms.module.js';
import { FormRetention } from './form-retention.js';
import { SubmissionExpiry } from './submission-expiry.js';
import { SubmissionStatsService } from './submission-stats.service.js';
import { SubmissionsController } from './submissions.controller.js';
import { SubmissionsService } from './submissions.service.js';
import { SubmissionRepository } from './submission.repository.js';
import { Submission } from './submission.entity.js';
import { FormCounters } from './counters/form-counters.js';

/**
 * The key-protected management of stored submissions (list, read, delete, export), and
 * the forms' retention (the "retention" sweep).
 */
@Module({
  imports: [TypeOrmModule.forFeature([Submission]), FormsModule],
  controllers: [SubmissionsController],
  providers: [
    SubmissionRepository,
    SubmissionsService,
    SubmissionStatsService,
    SubmissionExpiry,
    FormRetention,
    FormCounters,
  ],
  exports: [
    SubmissionRepository,
    SubmissionsService,
    SubmissionStatsService,
    SubmissionExpiry,
    FormRetention,
    FormCounters,
  ],
})
export class SubmissionsModule {}
