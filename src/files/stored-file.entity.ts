import {
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
} from 'typeorm';
import { ID, TimestampColumn } from '../common/database/columns.js';
import { Form } from '../forms/form.entity.js';

/** Longest file name kept (longer names are cut, on a character boundary). */
export const MAX_FILE_NAME_LENGTH = 1024;

/**
 * One uploaded file of a submission: its bytes live in the file storage under
 * `forms/<formId>/<submissionId>/<id>`; the row is written in the submission's commit.
 * A row without its object cannot exist (the object is durable first); an object
 * without a row is an orphan the sweep deletes.
 */
@Entity('stored_file')
@Index('IDX_stored_file_submission', ['submissionId'])
@Index('IDX_stored_file_account', ['accountId'])
export class StoredFile {
  /** 128 random bits, base64url: the last part of the object key. */
  @PrimaryColumn(ID)
  id: string;

  @Column(ID)
  submissionId: string;

  @Column(ID)
  formId: string;

  @ManyToOne(() => Form, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'formId' })
  form?: Form;

  /** The form's account: what its stored bytes add up to. */
  @Column(ID)
  accountId: string;

  /** The form field the file was sent for. */
  @Column({ type: 'varchar', length: 64 })
  fieldId: string;

  /** The name the client gave (shown and offered on download, never a path). */
  @Column({ type: 'varchar', length: MAX_FILE_NAME_LENGTH })
  name: string;

  @Column({ type: 'integer' })
  size: number;

  /** The MIME type judged from the bytes and the extension. */
  @Column({ type: 'varchar', length: 127 })
  type: string;

  /** SHA-256 of the bytes, hex. */
  @Column({ type: 'varchar', length: 64 })
  sha256: string;

  @TimestampColumn()
  createdAt: Date;
}
