import {
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
} from 'typeorm';
import { ID, TimestampColumn } from '../../common/database/columns.js';
import { Form } from '../../forms/form.entity.js';
import type { ChannelName } from '../notification-channel.js';

export const DELIVERY_STATUSES = [
  'pending',
  'succeeded',
  'failed',
  'dead',
] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * One notification of one target (a webhook, an address) about one event, made by the
 * worker from the outbox event its submission's batch wrote (one per submission, channel
 * and target: UQ_delivery_submission_target), and sent by the worker at least once.
 *
 * `nextAttemptAt` is when the worker may next take it. A claim moves it to the end of the
 * lease, so a delivery whose worker died is simply due again once its lease has run out.
 * A claim walks IDX_delivery_claim per account and target (the worker shares itself
 * fairly between accounts), earliest due first.
 */
@Entity('delivery')
@Index('IDX_delivery_claim', ['status', 'accountId', 'target', 'nextAttemptAt'])
@Index('UQ_delivery_submission_target', ['submissionId', 'channel', 'target'], {
  unique: true,
})
@Index('IDX_delivery_form_id', ['formId', 'id'])
@Index('IDX_delivery_target_id', ['target', 'id'])
@Index('IDX_delivery_submission', ['submissionId'])
export class Delivery {
  /** ULID: sortable by creation time, so newest first is `ORDER BY id DESC`. */
  @PrimaryColumn(ID)
  id: string;

  @Column(ID)
  formId: string;

  @ManyToOne(() => Form, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'formId' })
  form?: Form;

  /** The form's account: the worker shares its sends fairly between accounts. */
  @Column(ID)
  accountId: string;

  /** null for a test delivery. */
  @Column({ ...ID, nullable: true })
  submissionId: string | null;

  @Column({ type: 'varchar', length: 16 })
  channel: ChannelName;

  /** The webhook id, or the email address. */
  @Column({ type: 'varchar', length: 254 })
  target: string;

  @Column({ type: 'varchar', length: 32 })
  event: string;

  /**
   * Small JSON the channel needs at send time and the submission does not keep: the
   * `_subject` / `_replyto` control values for an email delivery. null otherwise.
   */
  @Column({ type: 'text', nullable: true })
  payload: string | null;

  @Column({ type: 'varchar', length: 16, default: 'pending' })
  status: DeliveryStatus;

  @Column({ type: 'integer', default: 0 })
  attempts: number;

  /**
   * Attempts made before the retry schedule last (re)started: a retry by the API starts
   * the schedule afresh while `attempts` keeps counting.
   */
  @Column({ type: 'integer', default: 0 })
  scheduleStart: number;

  @TimestampColumn({ nullable: true })
  nextAttemptAt: Date | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  leaseOwner: string | null;

  @TimestampColumn({ nullable: true })
  leaseUntil: Date | null;

  @Column({ type: 'integer', nullable: true })
  lastStatusCode: number | null;

  @Column({ type: 'varchar', length: 500, nullable: true })
  lastError: string | null;

  @Column({ type: 'integer', nullable: true })
  lastDurationMs: number | null;

  @TimestampColumn()
  createdAt: Date;

  @TimestampColumn({ nullable: true })
  deliveredAt: Date | null;
}
