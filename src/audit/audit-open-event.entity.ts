import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { ID, TimestampColumn } from '../common/database/columns.js';
import type { ActorType } from './audit-actions.js';

/**
 * The event of a change made over several transactions (a bulk delete's batches, an
 * erasure's windows) while it is under way: written with the first batch, its details
 * brought up to date in every batch's transaction, and chained as an audit_event in the
 * transaction that finishes the change. One left behind by a process that died is chained
 * by the "audit" sweep once it has been idle a while (docs/audit.md#changes-in-batches).
 */
@Entity('audit_open_event')
@Index('IDX_audit_open_event_touched', ['touchedAt'])
export class AuditOpenEvent {
  @PrimaryColumn(ID)
  id: string;

  @Column(ID)
  accountId: string;

  @Column({ type: 'varchar', length: 16 })
  actorType: ActorType;

  @Column({ type: 'varchar', length: 64, nullable: true })
  actorId: string | null;

  @Column({ type: 'varchar', length: 254 })
  actorLabel: string;

  @Column({ type: 'varchar', length: 64 })
  action: string;

  @Column({ type: 'varchar', length: 32 })
  targetType: string;

  @Column({ type: 'varchar', length: 64, nullable: true })
  targetId: string | null;

  /** JSON of the details as of the last committed batch. */
  @Column({ type: 'text' })
  details: string;

  @Column({ type: 'varchar', length: 64, nullable: true })
  ip: string | null;

  @Column({ type: 'varchar', length: 512, nullable: true })
  userAgent: string | null;

  @TimestampColumn()
  openedAt: Date;

  /** When a batch last wrote it (or the run said it is still at work). */
  @TimestampColumn()
  touchedAt: Date;
}
