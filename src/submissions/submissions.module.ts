import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { FormsModule } from '../forms/forms.module.js';
import { FormRetentionSweep } from './deletion/form-retention-sweep.js';
import { SubmissionExpiryService } from './deletion/submission-expiry.service.js';
import { SubmissionStatsService } from './queries/submission-stats.service.js';
import { SubmissionsController } from './submissions.controller.js';
import { SubmissionsService } from './submissions.service.js';
import { SubmissionRepository } from './submission.repository.js';
import { Submission } from './submission.entity.js';
import { FormCounterRepository } from './counters/form-counter.repository.js';
import { InboxService } from './inbox/inbox.service.js';
import { InboxApiService } from './inbox/inbox-api.service.js';
import { LabelsController } from './inbox/labels.controller.js';
import { NotesController } from './inbox/notes.controller.js';
import { Label } from './inbox/label.entity.js';
import { InboxRepository } from './inbox/inbox.repository.js';
import { LabelRepository } from './inbox/label.repository.js';
import { LabelsService } from './inbox/labels.service.js';
import { NotesService } from './inbox/notes.service.js';
import { SubmissionNoteRepository } from './inbox/submission-note.repository.js';
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
    SubmissionExpiryService,
    FormRetentionSweep,
    FormCounterRepository,
    InboxRepository,
    InboxService,
    InboxApiService,
    LabelRepository,
    LabelsService,
    SubmissionNoteRepository,
    NotesService,
    SearchCountRepository,
  ],
  exports: [
    SubmissionRepository,
    SubmissionsService,
    SubmissionStatsService,
    SubmissionExpiryService,
    FormRetentionSweep,
    FormCounterRepository,
    InboxService,
    LabelsService,
    NotesService,
  ],
})
export class SubmissionsModule {}
