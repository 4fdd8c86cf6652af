import {
  BeforeInsert,
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
} from 'typeorm';
import { User } from '../../accounts/user.entity.js';
import { ID, TimestampColumn } from '../../common/database/columns.js';
import { Submission } from '../submission.entity.js';

export const NOTE_TEXT_MAX = 5000;

/** A member's note on a submission (a thread, oldest first). */
@Entity('submission_note')
@Index('IDX_submission_note_submission_created', ['submissionId', 'createdAt'])
export class SubmissionNote {
  /** ULID. */
  @PrimaryColumn(ID)
  id: string;

  @Column(ID)
  submissionId: string;

  @ManyToOne(() => Submission, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'submissionId' })
  submission?: Submission;

  /** Null once the author's user is gone. */
  @Column({ ...ID, nullable: true })
  authorUserId: string | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'authorUserId' })
  author?: User;

  /**
   * When a key wrote it (over the API): which key — an account key's id, or `form:<id>`
   * for a form's key — so that key may edit it.
   */
  @Column({ type: 'varchar', length: 40, nullable: true })
  authorKey: string | null;

  /** The author's name when written: the key's name (a user's address is read from the user). */
  @Column({ type: 'varchar', length: 254, nullable: true })
  authorLabel: string | null;

  @Column({ type: 'text' })
  text: string;

  @TimestampColumn()
  createdAt: Date;

  @TimestampColumn()
  updatedAt: Date;

  @BeforeInsert()
  protected stampInsert(): void {
    this.createdAt ??= new Date();
    this.updatedAt ??= this.createdAt;
  }
}
