import { SYSTEM_ACTOR, type AuditActor } from '../audit/audit-actor.js';
import { AuditLogService } from '../audit/audit-log.service.js';
import type { AuditRun } from '../audit/audit-run.js';
import type { ApiPrincipal } from '../auth/principal.js';
import {
  BadRequestException,
  Inject,
  Injectable,
  NotFoundException,
  Optional,
} from '@nestjs/common';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { takeTurn } from '../common/runtime/event-loop-turns.js';
import type { Form } from '../forms/form.entity.js';
import {
  decodeCursor,
  encodeCursor,
  INVALID_CURSOR,
  type SubmissionPosition,
} from './queries/cursor.js';
import { DEFAULT_PAGE_SIZE } from './dto/list-submissions-query.dto.js';
import type {
  DeletedSubmissionsDto,
  SubmissionDto,
  SubmissionPageDto,
} from './dto/submission.dto.js';
import {
  EXPORT_FILE_LINKS,
  type ExportFileLinks,
} from './export/export-file-links.js';
import {
  openExport,
  type ExportSubmissionsQuery,
  type SubmissionExport,
} from './export/open-export.js';
import {
  parseFilters,
  type SubmissionFilterInput,
} from './queries/submission-filters.js';
import { toDate } from '../common/database/sql-dates.js';
import {
  positionOf,
  toData,
  toReasons,
  type SubmissionRow,
} from './queries/submission-rows.js';
import {
  SubmissionDeletionService,
  type DeletionBatch,
} from './deletion/submission-deletion.service.js';
import { SPAM_RELEASE, type SpamRelease } from './spam-release.js';
import { InboxService, type InboxFields } from './inbox/inbox.service.js';
import { LabelsService } from './inbox/labels.service.js';
import { FormCounterRepository } from './counters/form-counter.repository.js';
import {
  SubmissionRepository,
  type FormSubmissionStats,
} from './submission.repository.js';

export {
  EXPORT_BATCH_SIZE,
  EXPORT_CHUNK_CHARS,
  MAX_CSV_COLUMNS,
} from './export/submission-export.js';
export {
  UTF8_BOM,
  type ExportSubmissionsQuery,
  type SubmissionExport,
} from './export/open-export.js';
export {
  SEARCH_SCAN_ROWS,
  type FormSubmissionStats,
} from './submission.repository.js';

export const SUBMISSION_NOT_FOUND = 'Submission not found';

type Actor = ApiPrincipal | AuditActor;

/** The filters of a bulk delete or an export, as its audit event tells them. */
function rangeDetails(
  range: Pick<SubmissionFilterInput, 'from' | 'to' | 'spam' | 'q'>,
): Record<string, unknown> {
  return {
    from: range.from ?? null,
    to: range.to ?? null,
    spam: range.spam ?? false,
    ...(range.q ? { q: range.q } : {}),
  };
}

/** Rows per statement while bulk-deleting, so no statement holds locks for long. */
export const DELETE_BATCH_SIZE = 1000;

/** `limit` is checked by ListSubmissionsQueryDto (1 to MAX_PAGE_SIZE) before it gets here. */
export interface ListSubmissionsQuery extends SubmissionFilterInput {
  limit?: number;
  cursor?: string;
}

/** Listing, reading, deleting, exporting and filing (spam or not) a form's submissions. */
@Injectable()
export class SubmissionsService {
  constructor(
    private readonly submissions: SubmissionRepository,
    private readonly deletion: SubmissionDeletionService,
    private readonly inbox: InboxService,
    private readonly labels: LabelsService,
    private readonly counters: FormCounterRepository,
    private readonly auditLog: AuditLogService,
    /** Absent where notifications are not loaded: moving out of spam then only moves. */
    @Optional()
    @Inject(SPAM_RELEASE)
    private readonly release?: SpamRelease,
    /** Absent where files are not loaded: a CSV then names each file without a link. */
    @Optional()
    @Inject(EXPORT_FILE_LINKS)
    private readonly fileLinks?: ExportFileLinks,
  ) {}

  /** One page, newest first, of the form's submissions matching the filters. */
  async list(
    form: Form,
    query: ListSubmissionsQuery = {},
  ): Promise<SubmissionPageDto> {
    const filters = parseFilters(query);
    if (query.label !== undefined && query.label !== '') {
      filters.labelId =
        (await this.labels.findId(form.accountId, query.label)) ?? '-';
    }
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    let after: SubmissionPosition | undefined;
    if (query.cursor !== undefined) {
      after = decodeCursor(query.cursor);
      if (!after) throw new BadRequestException(INVALID_CURSOR);
    }
    // One row more than asked tells whether a next page exists, without a COUNT.
    const { rows, scannedThrough } = await this.submissions.read({
      formId: form.id,
      filters,
      direction: 'DESC',
      after,
      limit: limit + 1,
    });
    const page = rows.slice(0, limit);
    let next: SubmissionPosition | undefined;
    if (rows.length > limit) next = positionOf(page[limit - 1]);
    else next = scannedThrough;
    const fields = await this.inbox.fieldsOf(page);
    return {
      data: page.map((row) => this.map(row, fields.get(row.id))),
      nextCursor: next ? encodeCursor(next) : null,
    };
  }

  async findOne(form: Form, submissionId: string): Promise<SubmissionDto> {
    const row = await this.submissions.findOne(form.id, submissionId);
    if (!row) throw new NotFoundException(SUBMISSION_NOT_FOUND);
    const fields = await this.inbox.fieldsOf([row]);
    return this.map(row, fields.get(row.id));
  }

  /**
   * Files one submission: into the spam folder (marked by its owner), or out of it —
   * then its notifications are created, as if it had just arrived. Answers the
   * submission as it now is; repeating either is harmless.
   */
  async fileAsSpam(
    form: Form,
    submissionId: string,
    spam: boolean,
    by: Actor = SYSTEM_ACTOR,
  ): Promise<SubmissionDto> {
    if (spam) {
      await this.submissions.moveToFolder(form.id, submissionId, true, [
        'marked-by-owner',
      ]);
    } else if (this.release) {
      await this.release.release(form.id, submissionId, (manager) =>
        this.auditLog.record(manager, {
          accountId: form.accountId,
          actor: by,
          action: 'submission.released_from_spam',
          target: { type: 'submission', id: submissionId },
          details: { formId: form.id },
        }),
      );
    } else {
      await this.submissions.moveToFolder(form.id, submissionId, false, []);
    }
    return this.findOne(form, submissionId);
  }

  /** How many submissions of each form are in the spam folder (from the counters). */
  async countSpam(formIds: readonly string[]): Promise<Map<string, number>> {
    const counts = await this.counters.countsByForms(formIds);
    return new Map([...counts].map(([id, count]) => [id, count.spam]));
  }

  async remove(
    form: Form,
    submissionId: string,
    by: Actor = SYSTEM_ACTOR,
  ): Promise<void> {
    const deleted = await this.deletion.deleteIds(
      form.id,
      [submissionId],
      (manager) =>
        this.auditLog.record(manager, {
          accountId: form.accountId,
          actor: by,
          action: 'submission.deleted',
          target: { type: 'submission', id: submissionId },
          details: { formId: form.id },
        }),
    );
    if (!deleted) throw new NotFoundException(SUBMISSION_NOT_FOUND);
  }

  /**
   * Deletes the form's submissions in [from, to) — all of them without bounds — in
   * batches, of one folder like a list (the spam folder with `spam`). Without `to`,
   * submissions that arrive while it runs are kept. One audit event for the whole run.
   */
  async removeMany(
    form: Form,
    range: Pick<SubmissionFilterInput, 'from' | 'to' | 'spam'> = {},
    by: Actor = SYSTEM_ACTOR,
  ): Promise<DeletedSubmissionsDto> {
    const filters = parseFilters({
      from: range.from,
      to: range.to,
      spam: range.spam,
    });
    filters.to ??= new Date(Date.now() + 1);
    const submissions = this.submissions;
    async function* batches(): AsyncGenerator<DeletionBatch> {
      for (;;) {
        // Each batch is a statement on SQLite's (synchronous) driver: one turn each.
        await takeTurn();
        // From the start each time: the batch before is gone.
        const ids = (
          await submissions.rows({
            formId: form.id,
            filters,
            direction: 'ASC',
            limit: DELETE_BATCH_SIZE,
            columns: ['id'],
          })
        ).map((row) => row.id);
        if (ids.length === 0) return;
        const last = ids.length < DELETE_BATCH_SIZE;
        yield { formId: form.id, ids, last };
        if (last) return;
      }
    }
    const { count } = await this.deletion.deleteBatches(
      batches(),
      this.bulkRun(form, by),
      (progress) => ({ count: progress.count, ...rangeDetails(range) }),
    );
    return { deleted: count };
  }

  /**
   * Deletes the listed submissions of the form (at most MAX_BULK_IDS; ids it does not have
   * are skipped) as one change with one audit event; answers how many went.
   */
  async removeIds(
    form: Form,
    ids: readonly string[],
    by: Actor = SYSTEM_ACTOR,
  ): Promise<DeletedSubmissionsDto> {
    const listed = [...new Set(ids)];
    function* batches(): Generator<DeletionBatch> {
      for (let at = 0; at < listed.length; at += DELETE_BATCH_SIZE) {
        yield {
          formId: form.id,
          ids: listed.slice(at, at + DELETE_BATCH_SIZE),
          last: at + DELETE_BATCH_SIZE >= listed.length,
        };
      }
    }
    const { count } = await this.deletion.deleteBatches(
      batches(),
      this.bulkRun(form, by),
      (progress) => ({ count: progress.count, ids: listed }),
    );
    return { deleted: count };
  }

  /**
   * Clean submission count and latest submission time per form (forms without any:
   * count 0), read from the counters: no scan of the forms' rows.
   */
  async countByForms(
    formIds: readonly string[],
  ): Promise<Map<string, FormSubmissionStats>> {
    const counts = await this.counters.countsByForms(formIds);
    return new Map(
      [...counts].map(([id, count]) => [
        id,
        { count: count.total, lastAt: count.lastAt },
      ]),
    );
  }

  /** A streamed export, newest first, with the list's filters (see export/open-export.ts). */
  async openExport(
    form: Form,
    query: ExportSubmissionsQuery = {},
    by: Actor = SYSTEM_ACTOR,
  ): Promise<SubmissionExport> {
    const opened = await openExport(
      this.submissions,
      form,
      query,
      this.fileLinks,
      {
        fieldsOf: (rows) => this.inbox.fieldsOf(rows),
        labelId: (owner, name) => this.labels.findId(owner.accountId, name),
      },
    );
    // An export hands the data out: that it was asked for is the event (when it opened).
    await this.auditLog.recordAlone({
      accountId: form.accountId,
      actor: by,
      action: 'submissions.exported',
      target: { type: 'form', id: form.id },
      details: { format: query.format ?? 'csv', ...rangeDetails(query) },
    });
    return opened;
  }

  /** Writes an export into `destination` (e.g. a dashboard response), resolving at the end. */
  async writeExport(
    form: Form,
    query: ExportSubmissionsQuery,
    destination: Writable,
    by: Actor = SYSTEM_ACTOR,
  ): Promise<void> {
    const { stream } = await this.openExport(form, query, by);
    await pipeline(stream, destination);
  }

  /** The one event of a bulk delete, its details given batch by batch. */
  private bulkRun(form: Form, by: Actor): AuditRun {
    return this.auditLog.openRun({
      accountId: form.accountId,
      actor: by,
      action: 'submissions.deleted',
      target: { type: 'form', id: form.id },
    });
  }

  /** The one place a stored row becomes the API's Submission. */
  private map(row: SubmissionRow, inbox?: InboxFields): SubmissionDto {
    return {
      id: row.id,
      formId: row.formId,
      data: toData(row.data),
      createdAt: toDate(row.createdAt).toISOString(),
      meta: { ip: row.ip, userAgent: row.userAgent, origin: row.origin },
      spam: Boolean(Number(row.spam)),
      spamReasons: toReasons(row.spamReasons),
      status: inbox?.status ?? row.status,
      assignee: inbox?.assignee ?? null,
      labels: inbox?.labels ?? [],
      noteCount: inbox?.noteCount ?? 0,
    };
  }
}
