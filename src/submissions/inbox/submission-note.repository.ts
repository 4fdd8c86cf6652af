// Every statement on submission_note, members' notes on a submission (each read with its
// author, whose address the thread shows).
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository, type EntityManager } from 'typeorm';
import { SubmissionNote } from './submission-note.entity.js';

@Injectable()
export class SubmissionNoteRepository {
  constructor(
    @InjectRepository(SubmissionNote)
    private readonly notes: Repository<SubmissionNote>,
  ) {}

  /** This repository working in `manager`'s transaction (a change and its audit event). */
  in(manager: EntityManager): SubmissionNoteRepository {
    return new SubmissionNoteRepository(manager.getRepository(SubmissionNote));
  }

  /** The submission's notes with their authors, oldest first. */
  listOf(submissionId: string): Promise<SubmissionNote[]> {
    return this.notes.find({
      where: { submissionId },
      order: { createdAt: 'ASC', id: 'ASC' },
      relations: { author: true },
    });
  }

  create(values: Partial<SubmissionNote>): SubmissionNote {
    return this.notes.create(values);
  }

  async insert(note: SubmissionNote): Promise<void> {
    await this.notes.insert(note);
  }

  /** The submission's note with its author (any submission when `submissionId` is absent). */
  find(id: string, submissionId?: string): Promise<SubmissionNote | null> {
    return this.notes.findOne({
      where: submissionId === undefined ? { id } : { id, submissionId },
      relations: { author: true },
    });
  }

  async updateText(id: string, text: string, updatedAt: Date): Promise<void> {
    await this.notes.update({ id }, { text, updatedAt });
  }

  async delete(id: string): Promise<void> {
    await this.notes.delete({ id });
  }
}
