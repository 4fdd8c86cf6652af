import {
  BeforeInsert,
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
} from 'typeorm';
import { ID, TimestampColumn } from '../common/database/columns.js';
import { User } from '../accounts/user.entity.js';
import { Form } from '../forms/form.entity.js';

/** Where a submission is in the team's work (DESIGN 20). */
export const SUBMISSION_STATUSES = ['new', 'open', 'closed'] as const;
export type SubmissionStatus = (typeof SUBMISSION_STATUSES)[number];

/** An uploaded file as a submission's data shows it (its bytes: files/, by `id`). */
export interface FileValue {
  id: string;
  name: string;
  size: number;
  /** The MIME type judged from the bytes and the extension. */
  type: string;
  /** SHA-256 of the bytes, hex. */
  sha256: string;
}

export type SubmissionValue =
  string | number | boolean | null | FileValue | FileValue[];

export type SubmissionData = Record<string, SubmissionValue>;

@Entity('submission')
/**
 * Every list, export and count walks this index: a form's clean submissions and its
 * spam are two separate ranges of it, each in time order.
 */
@Index('IDX_submission_form_spam_created_id', [
  'formId',
  'spam',
  'createdAt',
  'id',
])
/** A status tab: one folder's submissions of one status, in time order. */
@Index('IDX_submission_form_spam_status_created_id', [
  'formId',
  'spam',
  'status',
  'createdAt',
  'id',
])
export class Submission {
  /** ULID: sortable by time, unguessable. */
  @PrimaryColumn(ID)
  id: string;

  @Column(ID)
  formId: string;

  @ManyToOne(() => Form, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'formId' })
  form?: Form;

  @Column({ type: 'json' })
  data: SubmissionData;

  @Column({ type: 'varchar', length: 45, nullable: true })
  ip: string | null;

  @Column({ type: 'varchar', length: 512, nullable: true })
  userAgent: string | null;

  @Column({ type: 'varchar', length: 1024, nullable: true })
  origin: string | null;

  /** In the spam folder: hidden from lists and exports, never notified. */
  @Column({ type: 'boolean', default: false })
  spam: boolean;

  /** Why it is spam (spam-settings.ts SPAM_REASONS); null when clean. */
  @Column({ type: 'json', nullable: true })
  spamReasons: string[] | null;

  /** A column default, so the submit path's insert names it not. */
  @Column({ type: 'varchar', length: 8, default: 'new' })
  status: SubmissionStatus;

  /** The member who handles it; null: nobody. */
  @Index('IDX_submission_assignee')
  @Column({ ...ID, nullable: true })
  assigneeId: string | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'assigneeId' })
  assignee?: User;

  @TimestampColumn()
  createdAt: Date;

  @BeforeInsert()
  protected stampInsert(): void {
    this.createdAt ??= new Date();
  }
}
