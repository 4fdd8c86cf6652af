// Working a form's submissions (DESIGN 20): a status, an assignee, labels — one submission
// or many at once — and what a page of submissions shows of them. Every change runs in one
// transaction with the counters it moves (FormCounterRepository); `changeIn` takes the caller's
// EntityManager so another record (the audit log) can join the same transaction.
import {
  BadRequestException,
  Inject,
  Injectable,
  NotFoundException,
  Optional,
} from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { CounterChanges } from '../counters/form-counters.js';
import { FormCounterRepository } from '../counters/form-counter.repository.js';
import type { SubmissionRow } from '../queries/submission-rows.js';
import {
  SUBMISSION_STATUSES,
  type SubmissionStatus,
} from '../submission.entity.js';
import type { InboxActor } from './inbox-actor.js';
import { InboxRepository } from './inbox.repository.js';
import { LabelsService } from './labels.service.js';
import { ASSIGNMENT_MAIL, type AssignmentMail } from './assignment-mail.js';

export const SUBMISSION_NOT_FOUND = 'Submission not found';
export const ASSIGNEE_NOT_MEMBER =
  "assigneeId must be a member of the form's account (or null)";

/** What a change sets; absent properties stay as they are. */
export interface InboxChange {
  status?: SubmissionStatus;
  /** null: nobody. */
  assigneeId?: string | null;
  /** The labels the submission then has, by name (PATCH one). */
  labels?: readonly string[];
  addLabels?: readonly string[];
  removeLabels?: readonly string[];
}

/** A change with its label names resolved to the account's label ids. */
export interface ResolvedChange {
  status?: SubmissionStatus;
  assigneeId?: string | null;
  labelIds?: readonly string[];
  addLabelIds?: readonly string[];
  removeLabelIds?: readonly string[];
}

export interface InboxFields {
  status: SubmissionStatus;
  assignee: { userId: string; email: string } | null;
  labels: string[];
  noteCount: number;
}

export function statusOf(value: unknown): SubmissionStatus {
  if (!SUBMISSION_STATUSES.includes(value as SubmissionStatus)) {
    throw new BadRequestException(
      `status must be one of ${SUBMISSION_STATUSES.join(', ')}`,
    );
  }
  return value as SubmissionStatus;
}

@Injectable()
export class InboxService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly rows: InboxRepository,
    private readonly counters: FormCounterRepository,
    private readonly labels: LabelsService,
    /** Absent where notifications are not loaded: assigning then mails nobody. */
    @Optional()
    @Inject(ASSIGNMENT_MAIL)
    private readonly mail?: AssignmentMail,
  ) {}

  /** Checks a change (statuses, the assignee's membership, label names) against the account. */
  async resolve(
    accountId: string,
    change: InboxChange,
  ): Promise<ResolvedChange> {
    const resolved: ResolvedChange = {};
    if (change.status !== undefined) resolved.status = statusOf(change.status);
    if (change.assigneeId !== undefined) {
      if (change.assigneeId !== null) {
        if (!(await this.rows.isMember(accountId, String(change.assigneeId)))) {
          throw new BadRequestException(ASSIGNEE_NOT_MEMBER);
        }
      }
      resolved.assigneeId = change.assigneeId;
    }
    if (change.labels !== undefined) {
      resolved.labelIds = await this.labels.idsOf(accountId, change.labels);
    }
    if (change.addLabels !== undefined) {
      resolved.addLabelIds = await this.labels.idsOf(
        accountId,
        change.addLabels,
      );
    }
    if (change.removeLabels !== undefined) {
      resolved.removeLabelIds = await this.labels.idsOf(
        accountId,
        change.removeLabels,
      );
    }
    return resolved;
  }

  /**
   * Applies a checked change to the listed submissions of a form (at most a batch) in
   * the caller's transaction, with the counters; answers how many exist and the ids newly
   * assigned to someone (for the mail after commit).
   */
  async changeIn(
    manager: EntityManager,
    formId: string,
    ids: readonly string[],
    change: ResolvedChange,
  ): Promise<{ updated: number; assigned: string[] }> {
    if (ids.length === 0) return { updated: 0, assigned: [] };
    const rows = await this.rows.lockRows(manager, formId, ids);
    if (rows.length === 0) return { updated: 0, assigned: [] };
    const found = rows.map((row) => row.id);
    const changes = new CounterChanges();
    if (change.status !== undefined) {
      const to = change.status;
      for (const row of rows) {
        if (!Number(row.spam)) changes.status(formId, row.status, to);
      }
      await this.rows.setStatus(manager, formId, found, to);
    }
    let assigned: string[] = [];
    if (change.assigneeId !== undefined) {
      const to = change.assigneeId;
      assigned =
        to === null
          ? []
          : rows.filter((r) => r.assigneeId !== to).map((r) => r.id);
      await this.rows.setAssignee(manager, formId, found, to);
    }
    if (change.labelIds !== undefined) {
      await this.rows.removeLabels(manager, found, undefined, change.labelIds);
      if (change.labelIds.length > 0) {
        await this.rows.addLabels(manager, found, change.labelIds);
      }
    }
    if (change.removeLabelIds && change.removeLabelIds.length > 0) {
      await this.rows.removeLabels(manager, found, change.removeLabelIds);
    }
    if (change.addLabelIds && change.addLabelIds.length > 0) {
      await this.rows.addLabels(manager, found, change.addLabelIds);
    }
    await this.counters.apply(manager, changes);
    return { updated: rows.length, assigned };
  }

  /**
   * One submission's change, in its own transaction (404 when the form has no such
   * submission); the new assignee is mailed after commit unless they assigned themselves.
   */
  async change(
    form: { id: string; accountId: string },
    submissionId: string,
    change: InboxChange,
    actor: InboxActor,
  ): Promise<void> {
    const resolved = await this.resolve(form.accountId, change);
    const result = await this.dataSource.transaction((manager) =>
      this.changeIn(manager, form.id, [submissionId], resolved),
    );
    if (result.updated === 0) throw new NotFoundException(SUBMISSION_NOT_FOUND);
    await this.mailAssignee(form, result.assigned, resolved.assigneeId, actor);
  }

  /** The listed submissions changed in one transaction (the bulk API's `ids`). */
  async changeMany(
    form: { id: string; accountId: string },
    ids: readonly string[],
    resolved: ResolvedChange,
    actor: InboxActor,
  ): Promise<number> {
    const unique = [...new Set(ids)];
    const result = await this.dataSource.transaction((manager) =>
      this.changeIn(manager, form.id, unique, resolved),
    );
    await this.mailAssignee(form, result.assigned, resolved.assigneeId, actor);
    return result.updated;
  }

  /**
   * The dashboard opened the submission: a `new` one becomes `open` (with its counters).
   * API reads never call this.
   */
  async openOnView(formId: string, submissionId: string): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      const [row] = await this.rows.lockRows(manager, formId, [submissionId]);
      if (!row || row.status !== 'new') return false;
      await this.rows.setStatus(manager, formId, [submissionId], 'open');
      const changes = new CounterChanges();
      if (!Number(row.spam)) changes.status(formId, 'new', 'open');
      await this.counters.apply(manager, changes);
      return true;
    });
  }

  /** What the inbox adds to each row of a page: assignee, labels, note count. */
  async fieldsOf(
    rows: ReadonlyArray<Pick<SubmissionRow, 'id'> & Partial<SubmissionRow>>,
  ): Promise<Map<string, InboxFields>> {
    const fields = new Map<string, InboxFields>();
    if (rows.length === 0) return fields;
    const ids = rows.map((row) => row.id);
    const userIds = [
      ...new Set(
        rows
          .map((row) => row.assigneeId)
          .filter((id): id is string => typeof id === 'string'),
      ),
    ];
    const [labels, notes, users] = await Promise.all([
      this.rows.labelsOf(ids),
      this.rows.noteCounts(ids),
      userIds.length > 0 ? this.rows.usersOf(userIds) : Promise.resolve([]),
    ]);
    const emails = new Map(users.map((user) => [user.id, user.email]));
    const counts = new Map(notes.map((n) => [n.submissionId, Number(n.count)]));
    for (const row of rows) {
      const assigneeId = row.assigneeId ?? null;
      const email = assigneeId === null ? undefined : emails.get(assigneeId);
      fields.set(row.id, {
        status: row.status ?? 'new',
        assignee:
          assigneeId !== null && email !== undefined
            ? { userId: assigneeId, email }
            : null,
        labels: [],
        noteCount: counts.get(row.id) ?? 0,
      });
    }
    for (const label of labels) {
      fields.get(label.submissionId)?.labels.push(label.name);
    }
    return fields;
  }

  private async mailAssignee(
    form: { id: string; accountId: string },
    submissionIds: readonly string[],
    assigneeId: string | null | undefined,
    actor: InboxActor,
  ): Promise<void> {
    if (!this.mail || !assigneeId || submissionIds.length === 0) return;
    if (actor.userId === assigneeId) return;
    await this.mail.assigned({
      accountId: form.accountId,
      formId: form.id,
      submissionIds,
      assigneeId,
      byUserId: actor.userId,
    });
  }
}
