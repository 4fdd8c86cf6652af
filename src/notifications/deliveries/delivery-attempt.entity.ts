import {
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
} from 'typeorm';
import { ID, TimestampColumn } from '../../common/database/columns.js';
import { Delivery } from './delivery.entity.js';

/** One try of a delivery, as the delivery log shows it. */
@Entity('delivery_attempt')
@Index('IDX_delivery_attempt_delivery_at', ['deliveryId', 'at'])
export class DeliveryAttempt {
  /** ULID. */
  @PrimaryColumn(ID)
  id: string;

  @Column(ID)
  deliveryId: string;

  @ManyToOne(() => Delivery, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'deliveryId' })
  delivery?: Delivery;

  @TimestampColumn()
  at: Date;

  @Column({ type: 'integer', nullable: true })
  statusCode: number | null;

  @Column({ type: 'varchar', length: 500, nullable: true })
  error: string | null;

  @Column({ type: 'integer' })
  durationMs: number;
}
