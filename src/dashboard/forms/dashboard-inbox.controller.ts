import {
  BadRequestException,
  Body,
  Controller,
  ForbiddenException,
  Param,
  Post,
  Res,
  UseFilters,
  UseGuards,
} from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { roleHas } from '../../auth/permissions.js';
import { Requires } from '../../auth/route-access.decorator.js';
import {
  NoDeadline,
  WithDeadline,
} from '../../common/http/deadline.interceptor.js';
import type { Form } from '../../forms/form.entity.js';
import { FormsService } from '../../forms/forms.service.js';
import { actorOf } from '../../submissions/inbox/inbox-actor.js';
import {
  InboxService,
  type InboxChange,
} from '../../submissions/inbox/inbox.service.js';
import { LabelsService } from '../../submissions/inbox/labels.service.js';
import { MembersService } from '../../members/members.service.js';
import { NotesService } from '../../submissions/inbox/notes.service.js';
import { SubmissionsService } from '../../submissions/submissions.service.js';
import {
  Dashboard,
  memberPrincipal,
  type DashboardContext,
} from '../dashboard-context.js';
import { DashboardExceptionFilter } from '../dashboard-exception.filter.js';
import { textOf } from '../form-body.js';
import { SignedInGuard } from '../session/dashboard.guards.js';
import { formPath, submissionPath } from './form-links.js';
import { safeBack, withDone } from './inbox-filters.js';
import { readBulkChange, readBulkIds, readWorkPost } from './inbox-post.js';
import { OwnedForm } from './owned-form.decorator.js';
import { SubmissionPageBuilder } from './submission-page.builder.js';

/** submissions-bulk-delete.eta: the confirmation of deleting the selected submissions. */
export interface BulkDeleteSelectedView {
  form: ReturnType<FormsService['toResponse']>;
  ids: string[];
  back: string;
}

/**
 * Working a form's submissions from the dashboard (DESIGN 20): a row's or the detail page's
 * status and assignee (and labels), the bulk bar, and the notes thread. Plain posts with
 * the CSRF token; editors and above (viewers get the 403 page).
 */
@ApiExcludeController()
@WithDeadline()
@Controller('dashboard/forms/:formId/submissions')
@UseGuards(SignedInGuard)
@UseFilters(DashboardExceptionFilter)
export class DashboardInboxController {
  constructor(
    private readonly forms: FormsService,
    private readonly inbox: InboxService,
    private readonly notes: NotesService,
    private readonly submissions: SubmissionsService,
    private readonly pages: SubmissionPageBuilder,
    private readonly labels: LabelsService,
    private readonly members: MembersService,
  ) {}

  // Static paths first: "bulk" is never read as a submission id.
  @Post('bulk')
  @Requires('submissions.work')
  async bulk(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @OwnedForm() form: Form,
    @Body() body: unknown,
  ) {
    const ids = readBulkIds(body);
    const back = safeBack(textOf(body, 'back'));
    if (textOf(body, 'action') === 'delete') {
      if (!roleHas(context.account.role, 'submissions.delete')) {
        throw new ForbiddenException('Your role cannot delete submissions');
      }
      return reply.status(200).view('submissions-bulk-delete', {
        form: this.forms.toResponse(form),
        ids,
        back,
      } satisfies BulkDeleteSelectedView);
    }
    const change = readBulkChange(body);
    await this.check(form, change);
    const resolved = await this.inbox.resolve(form.accountId, change);
    const updated = await this.inbox.changeMany(
      form,
      ids,
      resolved,
      actorOf(memberPrincipal(context)),
    );
    return reply.redirect(
      `${formPath(form.id)}${withDone(back, 'bulk-updated', updated)}#submissions-title`,
      303,
    );
  }

  @Post('bulk-delete')
  @Requires('submissions.delete')
  @NoDeadline()
  async bulkDelete(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @OwnedForm() form: Form,
    @Body() body: unknown,
  ) {
    // One change, one audit event; ids already gone (another member, retention) are skipped.
    const { deleted } = await this.submissions.removeIds(
      form,
      readBulkIds(body),
      memberPrincipal(context),
    );
    const back = safeBack(textOf(body, 'back'));
    return reply.redirect(
      `${formPath(form.id)}${withDone(back, 'bulk-deleted', deleted)}#submissions-title`,
      303,
    );
  }

  /** A row's or the detail page's status, assignee (and, from the detail page, labels). */
  @Post(':submissionId/work')
  @Requires('submissions.work')
  async work(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @OwnedForm() form: Form,
    @Param('submissionId') submissionId: string,
    @Body() body: unknown,
  ) {
    const change = readWorkPost(body);
    await this.check(form, change);
    await this.inbox.change(
      form,
      submissionId,
      change,
      actorOf(memberPrincipal(context)),
    );
    const back = safeBack(textOf(body, 'back'));
    if (textOf(body, 'from') === 'detail') {
      return reply.redirect(
        `${submissionPath(form.id, submissionId, { done: 'saved', back })}#work`,
        303,
      );
    }
    return reply.redirect(
      `${formPath(form.id)}${withDone(back, 'saved')}#submissions-title`,
      303,
    );
  }

  @Post(':submissionId/notes')
  @Requires('submissions.work')
  async addNote(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @OwnedForm() form: Form,
    @Param('submissionId') submissionId: string,
    @Body() body: unknown,
  ) {
    // The submission must be this form's (404 otherwise) before a note joins it.
    await this.submissions.findOne(form, submissionId);
    const text = textOf(body, 'text');
    const back = safeBack(textOf(body, 'back'));
    try {
      await this.notes.add(
        submissionId,
        actorOf(memberPrincipal(context)),
        text,
      );
    } catch (error) {
      if (!(error instanceof BadRequestException)) throw error;
      const page = await this.pages.build(context, form, submissionId, {
        noteError: noteMessage(text),
        noteText: text,
        back,
      });
      return reply.status(400).view('submission-detail', page);
    }
    return reply.redirect(
      `${submissionPath(form.id, submissionId, { done: 'note-added', back })}#notes`,
      303,
    );
  }

  @Post(':submissionId/notes/:noteId')
  @Requires('submissions.work')
  async editNote(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @OwnedForm() form: Form,
    @Param('submissionId') submissionId: string,
    @Param('noteId') noteId: string,
    @Body() body: unknown,
  ) {
    await this.submissions.findOne(form, submissionId);
    const text = textOf(body, 'text');
    const back = safeBack(textOf(body, 'back'));
    try {
      await this.notes.edit(
        submissionId,
        noteId,
        actorOf(memberPrincipal(context)),
        text,
      );
    } catch (error) {
      if (!(error instanceof BadRequestException)) throw error;
      const page = await this.pages.build(context, form, submissionId, {
        editError: { noteId, message: noteMessage(text), text },
        back,
      });
      return reply.status(400).view('submission-detail', page);
    }
    return reply.redirect(
      `${submissionPath(form.id, submissionId, { done: 'note-saved', back })}#note-${encodeURIComponent(noteId)}`,
      303,
    );
  }

  @Post(':submissionId/notes/:noteId/delete')
  @Requires('submissions.work')
  async deleteNote(
    @Dashboard() context: DashboardContext,
    @Res() reply: FastifyReply,
    @OwnedForm() form: Form,
    @Param('submissionId') submissionId: string,
    @Param('noteId') noteId: string,
    @Body() body: unknown,
  ) {
    await this.submissions.findOne(form, submissionId);
    await this.notes.remove(
      submissionId,
      noteId,
      actorOf(memberPrincipal(context)),
    );
    return reply.redirect(
      `${submissionPath(form.id, submissionId, { done: 'note-deleted', back: safeBack(textOf(body, 'back')) })}#notes`,
      303,
    );
  }

  /** The assignee and labels a post names, checked in the page's words (400). */
  private async check(form: Form, change: InboxChange): Promise<void> {
    const named = [
      ...(change.labels ?? []),
      ...(change.addLabels ?? []),
      ...(change.removeLabels ?? []),
    ];
    const [members, labels] = await Promise.all([
      change.assigneeId ? this.members.list(form.accountId) : [],
      named.length > 0 ? this.labels.list(form.accountId) : [],
    ]);
    if (
      change.assigneeId &&
      !members.some((member) => member.userId === change.assigneeId)
    ) {
      throw new BadRequestException(
        'Choose the assignee among this account’s members',
      );
    }
    const known = new Set(labels.map((label) => label.name));
    const unknown = named.find((name) => !known.has(name));
    if (unknown !== undefined) {
      throw new BadRequestException(`There is no label named “${unknown}”`);
    }
  }
}

function noteMessage(text: string): string {
  return text.trim() === ''
    ? 'Write something before adding the note'
    : 'A note has at most 5,000 characters';
}
