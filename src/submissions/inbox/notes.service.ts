// Members' notes on a submission: a thread, oldest first; the author or an admin edits.
import {
  BadRequestException,
  ForbiddenException,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { User } from '../../accounts/user.entity.js';
import { newUlid } from '../../common/values/ulid.js';
import { mayEditNote, type InboxActor } from './inbox-actor.js';
import {
  NOTE_TEXT_MAX,
  type SubmissionNote,
} from './submission-note.entity.js';
import { SubmissionNoteRepository } from './submission-note.repository.js';

export interface NoteView {
  id: string;
  text: string;
  /** The member who wrote it; both null when a key wrote it or the user is gone. */
  author: { userId: string | null; email: string | null };
  createdAt: string;
  updatedAt: string;
}

export const NOTE_NOT_FOUND = 'Note not found';
export const NOTE_NOT_YOURS = "Only a note's author or an admin may change it";

/** A note's text: 1 to 5,000 characters (else 400). */
export function noteText(text: unknown): string {
  if (typeof text !== 'string' || text.trim() === '') {
    throw new BadRequestException('text must be a non-empty string');
  }
  if (Array.from(text).length > NOTE_TEXT_MAX) {
    throw new BadRequestException(
      `text must be at most ${NOTE_TEXT_MAX} characters`,
    );
  }
  return text;
}

@Injectable()
export class NotesService {
  constructor(private readonly notes: SubmissionNoteRepository) {}

  /** The submission's notes, oldest first (the caller has checked the submission is the form's). */
  async list(submissionId: string): Promise<NoteView[]> {
    const rows = await this.notes.listOf(submissionId);
    return rows.map((row) => this.map(row));
  }

  async add(
    submissionId: string,
    actor: InboxActor,
    text: unknown,
    manager?: EntityManager,
  ): Promise<NoteView> {
    const repo = manager ? this.notes.in(manager) : this.notes;
    const note = repo.create({
      id: newUlid(),
      submissionId,
      authorUserId: actor.userId,
      authorKey: actor.key,
      authorLabel: null,
      text: noteText(text),
    });
    await repo.insert(note);
    const saved = await repo.find(note.id);
    return this.map(saved!);
  }

  async edit(
    submissionId: string,
    noteId: string,
    actor: InboxActor,
    text: unknown,
    manager?: EntityManager,
  ): Promise<NoteView> {
    const repo = manager ? this.notes.in(manager) : this.notes;
    const note = await this.own(repo, submissionId, noteId, actor);
    note.text = noteText(text);
    note.updatedAt = new Date();
    await repo.updateText(note.id, note.text, note.updatedAt);
    return this.map(note);
  }

  async remove(
    submissionId: string,
    noteId: string,
    actor: InboxActor,
    manager?: EntityManager,
  ): Promise<void> {
    const repo = manager ? this.notes.in(manager) : this.notes;
    const note = await this.own(repo, submissionId, noteId, actor);
    await repo.delete(note.id);
  }

  private async own(
    repo: SubmissionNoteRepository,
    submissionId: string,
    noteId: string,
    actor: InboxActor,
  ): Promise<SubmissionNote> {
    const note = await repo.find(noteId, submissionId);
    if (!note) throw new NotFoundException(NOTE_NOT_FOUND);
    if (!mayEditNote(actor, note)) throw new ForbiddenException(NOTE_NOT_YOURS);
    return note;
  }

  private map(row: SubmissionNote & { author?: User | null }): NoteView {
    return {
      id: row.id,
      text: row.text,
      author: {
        userId: row.authorUserId,
        email: row.author?.email ?? null,
      },
      createdAt: new Date(row.createdAt).toISOString(),
      updatedAt: new Date(row.updatedAt).toISOString(),
    };
  }
}
