import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ID } from '../../common/database/columns.js';
import { Form } from '../../forms/form.entity.js';

/** A form's clean submissions per UTC day (the chart), kept with the writes. */
@Entity('form_daily_count')
export class FormDailyCount {
  @PrimaryColumn(ID)
  formId: string;

  /** YYYY-MM-DD (UTC). */
  @PrimaryColumn({ type: 'varchar', length: 10 })
  day: string;

  @ManyToOne(() => Form, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'formId' })
  form?: Form;

  @Column({ type: 'integer', default: 0 })
  count: number;
}
