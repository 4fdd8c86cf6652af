import { Column, Entity, JoinColumn, OneToOne, PrimaryColumn } from 'typeorm';
import { ID, TimestampColumn } from '../../common/database/columns.js';
import { Form } from '../../forms/form.entity.js';

/**
 * A form's submission counts, kept by the writes that change them (docs/inbox.md): the
 * clean submissions (`total`, and each status among them) and the spam folder's. A form
 * without a row has none.
 */
@Entity('form_counter')
export class FormCounter {
  @PrimaryColumn(ID)
  formId: string;

  @OneToOne(() => Form, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'formId' })
  form?: Form;

  @Column({ type: 'integer', default: 0 })
  total: number;

  @Column({ type: 'integer', default: 0 })
  spam: number;

  @Column({ type: 'integer', default: 0 })
  newCount: number;

  @Column({ type: 'integer', default: 0 })
  openCount: number;

  @Column({ type: 'integer', default: 0 })
  closedCount: number;

  /** When its latest submission arrived (deletions leave it). */
  @TimestampColumn({ nullable: true })
  lastAt: Date | null;
}
