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
import { Form } from '../forms/form.entity.js';

export type SubmissionData = Record<string, string | number | boolean | null>;

@Entity('submission')
@Index('IDX_submission_form_created_id', ['formId', 'createdAt', 'id'])
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

  @TimestampColumn()
  createdAt: Date;

  @BeforeInsert()
  protected stampInsert(): void {
    this.createdAt ??= new Date();
  }
}
