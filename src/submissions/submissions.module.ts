import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { FormsModule } from '../forms/forms.module.js';
import { SubmissionStatsService } from './submission-stats.service.js';
import { SubmissionsController } from './submissions.controller.js';
import { SubmissionsService } from './submissions.service.js';
import { SubmissionRepository } from './submission.repository.js';
import { Submission } from './submission.entity.js';

/** The key-protected management of stored submissions: list, read, delete, export. */
@Module({
  imports: [TypeOrmModule.forFeature([Submission]), FormsModule],
  controllers: [SubmissionsController],
  providers: [SubmissionRepository, SubmissionsService, SubmissionStatsService],
  exports: [SubmissionRepository, SubmissionsService, SubmissionStatsService],
})
export class SubmissionsModule {}
