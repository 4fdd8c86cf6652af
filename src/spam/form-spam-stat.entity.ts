import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ID } from '../common/database/columns.js';
import { Form } from '../forms/form.entity.js';

/**
 * Posts a form turned away without storing them, per UTC day: caught by the honeypot,
 * or refused by the CAPTCHA. The dashboard sums the last 30 days; older days are swept.
 */
@Entity('form_spam_stat')
export class FormSpamStat {
  @PrimaryColumn(ID)
  formId: string;

  @ManyToOne(() => Form, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'formId' })
  form?: Form;

  /** YYYY-MM-DD (UTC). */
  @PrimaryColumn({ type: 'varchar', length: 10 })
  day: string;

  @Column({ type: 'integer', default: 0 })
  honeypot: number;

  @Column({ type: 'integer', default: 0 })
  captcha: number;
}
