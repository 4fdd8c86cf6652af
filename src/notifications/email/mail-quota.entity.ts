import { Column, Entity, PrimaryColumn } from 'typeorm';
import { TimestampColumn } from '../../common/database/columns.js';

/**
 * A cap on the confirmation mail the service sends, per account (`account:<id>`) or per
 * address across every account (`address:<lower-case address>`): how many went out on
 * `day` (UTC, YYYY-MM-DD), and how many in a row went unanswered. A mail is reserved by
 * one conditional UPDATE of this row (MailQuotaLimiter), so concurrent requests never overshoot.
 */
@Entity('mail_quota')
export class MailQuota {
  @PrimaryColumn({ type: 'varchar', length: 300 })
  subject: string;

  @Column({ type: 'varchar', length: 10, default: '' })
  day: string;

  /** Mails reserved on `day`. */
  @Column({ type: 'integer', default: 0 })
  usedOnDay: number;

  /** Confirmation mails since the address last confirmed (or since a quiet month). */
  @Column({ type: 'integer', default: 0 })
  unanswered: number;

  @TimestampColumn({ nullable: true })
  lastSentAt: Date | null;
}
