// The data of one submission's page (submission-detail.eta): its values (files as names
// with download links), where it came from, its status, assignee and labels with the
// controls to change them, and the notes thread.
import { Injectable } from '@nestjs/common';
import { roleHas } from '../../auth/permissions.js';
import type { FormResponseDto } from '../../forms/dto/form-response.dto.js';
import type { FieldDefinition, Form } from '../../forms/form.entity.js';
import { FormsService } from '../../forms/forms.service.js';
import { MembersService } from '../../members/members.service.js';
import type { SubmissionDto } from '../../submissions/dto/submission.dto.js';
import { actorOf, mayEditNote } from '../../submissions/inbox/inbox-actor.js';
import { LabelsService } from '../../submissions/inbox/labels.service.js';
import {
  NotesService,
  type NoteView,
} from '../../submissions/inbox/notes.service.js';
import type { SubmissionStatus } from '../../submissions/submission.entity.js';
import { SubmissionsService } from '../../submissions/submissions.service.js';
import { ownEntry } from '../../common/values/own-entry.js';
import {
  memberPrincipal,
  type DashboardContext,
} from '../dashboard-context.js';
import { backParam, STATUS_NAMES } from './inbox-filters.js';

export interface SubmissionField {
  key: string;
  label: string;
  value: unknown;
  /** A key the form's current fields no longer (or never) had. */
  extra: boolean;
}

/** Every configured field in form order (sent or not), then any other stored key. */
export function submissionFields(
  fields: FieldDefinition[],
  data: SubmissionDto['data'],
): SubmissionField[] {
  const rows: SubmissionField[] = fields.map((field) => ({
    key: field.id,
    label: field.label?.trim() || field.id,
    value: Object.hasOwn(data, field.id) ? data[field.id] : undefined,
    extra: false,
  }));
  const known = new Set(fields.map((field) => field.id));
  for (const key of Object.keys(data)) {
    if (!known.has(key)) {
      rows.push({ key, label: key, value: data[key], extra: true });
    }
  }
  return rows;
}

const NOTICES: Record<string, string> = {
  saved: 'Saved.',
  'note-added': 'Note added.',
  'note-saved': 'Note saved.',
  'note-deleted': 'Note deleted.',
};

/** What a failed note post shows again (the message, what was typed); the notice; where from. */
export interface NoteErrors {
  noteError?: string;
  noteText?: string;
  editError?: { noteId: string; message: string; text: string };
  done?: string;
  /** The inbox query the page was opened from (safeBack), for its way back. */
  back?: string;
}

/** submission-detail.eta (and, with `fields` cut short, submission-delete.eta). */
export interface SubmissionView {
  form: FormResponseDto;
  submission: SubmissionDto;
  fields: SubmissionField[];
  canWork: boolean;
  canDelete: boolean;
  members: Array<{ userId: string; email: string }>;
  labels: Array<{ name: string; color: string; on: boolean }>;
  statuses: Array<{ key: SubmissionStatus; label: string }>;
  statusNames: Record<SubmissionStatus, string>;
  notes: Array<NoteView & { mayEdit: boolean }>;
  noteError: string | null;
  noteText: string;
  editError: NoteErrors['editError'] | null;
  notice: string | undefined;
  /** The inbox query "Back to submissions" returns to, carried by the page's posts. */
  back: string;
  /** `?back=…` for the page's links to itself (delete, cancel), or ''. */
  backParam: string;
}

@Injectable()
export class SubmissionPageBuilder {
  constructor(
    private readonly forms: FormsService,
    private readonly submissions: SubmissionsService,
    private readonly notes: NotesService,
    private readonly labels: LabelsService,
    private readonly members: MembersService,
  ) {}

  async build(
    context: DashboardContext,
    entity: Form,
    submissionId: string,
    errors: NoteErrors = {},
  ): Promise<SubmissionView> {
    const submission = await this.submissions.findOne(entity, submissionId);
    const form = this.forms.toResponse(entity);
    const actor = actorOf(memberPrincipal(context));
    const [notes, labels, members] = await Promise.all([
      this.notes.list(submission.id),
      this.labels.list(context.account.id),
      this.members.list(context.account.id),
    ]);
    const on = new Set(submission.labels);
    return {
      form,
      submission,
      fields: submissionFields(form.fields, submission.data),
      canWork: roleHas(context.account.role, 'submissions.work'),
      canDelete: roleHas(context.account.role, 'submissions.delete'),
      members: members.map((m) => ({ userId: m.userId, email: m.email })),
      labels: labels.map((l) => ({
        name: l.name,
        color: l.color,
        on: on.has(l.name),
      })),
      statuses: (['new', 'open', 'closed'] as const).map((key) => ({
        key,
        label: STATUS_NAMES[key],
      })),
      statusNames: STATUS_NAMES,
      notes: notes.map((note) => ({
        ...note,
        mayEdit: mayEditNote(actor, {
          authorUserId: note.author.userId,
          authorKey: null,
        }),
      })),
      noteError: errors.noteError ?? null,
      noteText: errors.noteText ?? '',
      editError: errors.editError ?? null,
      notice: errors.done ? ownEntry(NOTICES, errors.done) : undefined,
      back: errors.back ?? '',
      backParam: backParam(errors.back ?? ''),
    };
  }
}
