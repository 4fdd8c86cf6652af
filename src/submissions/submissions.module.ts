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
import { InboxService } from './inbox/inbox.service.js';
import { InboxApiService } from './inbox/inbox-api.service.js';
import { LabelsController } from './inbox/labels.controller.js';
import { NotesController } from './inbox/notes.controller.js';
import { Label } from './inbox/label.entity.js';
import { LabelsService } from './inbox/labels.service.js';
import { NotesService } from './inbox/notes.service.js';
import { SubmissionNote } from './inbox/submission-note.entity.js';
import { SearchCountRepository } from './search/search-count.repository.js';

/**
 * The key-protected management of stored submissions (list, read, delete, export), and
 * the forms' retention (the "retention" sweep).
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([Submission, Label, SubmissionNote]),
    FormsModule,
  ],
  controllers: [SubmissionsController, NotesController, LabelsController],
  providers: [
    SubmissionRepository,
    SubmissionsService,
    SubmissionStatsService,
    SubmissionExpiry,
    FormRetention,
    FormCounters,
    InboxService,
    InboxApiService,
    LabelsService,
    NotesService,
    SearchCountRepository,
  ],
  exports: [
    SubmissionRepository,
    SubmissionsService,
    SubmissionStatsService,
    SubmissionExpiry,
    FormRetention,
    FormCounters,
    InboxService,
    LabelsService,
    NotesService,
  ],
})
export class SubmissionsModule {}
