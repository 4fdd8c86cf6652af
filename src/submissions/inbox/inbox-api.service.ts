// The inbox routes of the API (PATCH one, bulk, notes): checks, then InboxService and
// NotesService do the work.
import type { ApiPrincipal } from '../../auth/principal.js';
import { Injectable, NotFoundException } from '@nestjs/common';
import { ValidationFailedException } from '../../common/errors/errors.js';
import { takeTurn } from '../../common/runtime/event-loop-turns.js';
import type { Form } from '../../forms/form.entity.js';
import type { BulkSubmissionsDto } from '../dto/bulk-submissions.dto.js';
import type { SubmissionDto } from '../dto/submission.dto.js';
import type { UpdateSubmissionDto } from '../dto/update-submission.dto.js';
import type { SubmissionPosition } from '../queries/cursor.js';
import {
  parseFilters,
  type SubmissionFilters,
} from '../queries/submission-filters.js';
import { positionOf } from '../queries/submission-rows.js';
import { SubmissionRepository } from '../submission.repository.js';
import { SubmissionsService } from '../submissions.service.js';
import type { InboxActor } from './inbox-actor.js';
import {
  InboxService,
  SUBMISSION_NOT_FOUND,
  type ResolvedChange,
} from './inbox.service.js';
import { LabelsService } from './labels.service.js';
import { NotesService, type NoteView } from './notes.service.js';

/** Submissions one bulk-by-filter transaction changes. */
export const BULK_BATCH_SIZE = 500;

@Injectable()
export class InboxApiService {
  constructor(
    private readonly submissions: SubmissionsService,
    private readonly rows: SubmissionRepository,
    private readonly inbox: InboxService,
    private readonly labels: LabelsService,
    private readonly notes: NotesService,
  ) {}

  /** PATCH one: the spam folder and/or the inbox's fields; answers it as it now is. */
  async update(
    form: Form,
    submissionId: string,
    body: UpdateSubmissionDto,
    actor: InboxActor,
    by?: ApiPrincipal,
  ): Promise<SubmissionDto> {
    const { spam, ...change } = body;
    const inboxChange = Object.fromEntries(
      Object.entries(change).filter(([, value]) => value !== undefined),
    );
    if (spam === undefined && Object.keys(inboxChange).length === 0) {
      throw new ValidationFailedException([
        'send at least one of spam, status, assigneeId, labels',
      ]);
    }
    // Checked before anything changes: a bad assignee or label changes nothing.
    await this.submissions.findOne(form, submissionId);
    if (Object.keys(inboxChange).length > 0) {
      await this.inbox.change(form, submissionId, inboxChange, actor);
    }
    if (spam !== undefined) {
      return this.submissions.fileAsSpam(form, submissionId, spam, by);
    }
    return this.submissions.findOne(form, submissionId);
  }

  /** Bulk: the listed ids in one transaction, or every match of a filter in batches. */
  async bulk(
    form: Form,
    body: BulkSubmissionsDto,
    actor: InboxActor,
  ): Promise<{ updated: number }> {
    if ((body.ids === undefined) === (body.filter === undefined)) {
      throw new ValidationFailedException(['send either ids or filter']);
    }
    const set = Object.fromEntries(
      Object.entries(body.set).filter(([, value]) => value !== undefined),
    );
    if (Object.keys(set).length === 0) {
      throw new ValidationFailedException([
        'set must hold at least one of status, assigneeId, addLabels, removeLabels',
      ]);
    }
    const resolved = await this.inbox.resolve(form.accountId, set);
    if (body.ids !== undefined) {
      return {
        updated: await this.inbox.changeMany(form, body.ids, resolved, actor),
      };
    }
    const filters = await this.filtersOf(form, body.filter ?? {});
    return {
      updated: await this.changeMatching(form, filters, resolved, actor),
    };
  }

  /** The list's filters with the label's name made its id. */
  async filtersOf(
    form: Form,
    input: Parameters<typeof parseFilters>[0],
  ): Promise<SubmissionFilters> {
    const filters = parseFilters(input);
    if (input.label !== undefined && input.label !== '') {
      filters.labelId =
        (await this.labels.findId(form.accountId, input.label)) ?? '-';
    }
    return filters;
  }

  async listNotes(form: Form, submissionId: string): Promise<NoteView[]> {
    await this.exists(form, submissionId);
    return this.notes.list(submissionId);
  }

  async addNote(
    form: Form,
    submissionId: string,
    text: string,
    actor: InboxActor,
  ): Promise<NoteView> {
    await this.exists(form, submissionId);
    return this.notes.add(submissionId, actor, text);
  }

  async editNote(
    form: Form,
    submissionId: string,
    noteId: string,
    text: string,
    actor: InboxActor,
  ): Promise<NoteView> {
    await this.exists(form, submissionId);
    return this.notes.edit(submissionId, noteId, actor, text);
  }

  async removeNote(
    form: Form,
    submissionId: string,
    noteId: string,
    actor: InboxActor,
  ): Promise<void> {
    await this.exists(form, submissionId);
    await this.notes.remove(submissionId, noteId, actor);
  }

  private async exists(form: Form, submissionId: string): Promise<void> {
    const row = await this.rows.findOne(form.id, submissionId);
    if (!row) throw new NotFoundException(SUBMISSION_NOT_FOUND);
  }

  /**
   * Every clean submission the filters match, oldest first, a batch per transaction;
   * submissions that arrive meanwhile are left alone.
   */
  private async changeMatching(
    form: Form,
    filters: SubmissionFilters,
    resolved: ResolvedChange,
    actor: InboxActor,
  ): Promise<number> {
    const bounded = { ...filters, to: filters.to ?? new Date(Date.now() + 1) };
    let after: SubmissionPosition | undefined;
    let updated = 0;
    for (;;) {
      await takeTurn();
      const { rows, scannedThrough } = await this.rows.read({
        formId: form.id,
        filters: bounded,
        direction: 'ASC',
        after,
        limit: BULK_BATCH_SIZE,
      });
      if (rows.length > 0) {
        updated += await this.inbox.changeMany(
          form,
          rows.map((row) => row.id),
          resolved,
          actor,
        );
      }
      const last = rows.at(-1);
      if (rows.length === BULK_BATCH_SIZE && last) {
        after = positionOf(last);
      } else if (scannedThrough) {
        after = scannedThrough;
      } else {
        return updated;
      }
    }
  }
}
