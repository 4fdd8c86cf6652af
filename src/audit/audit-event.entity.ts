import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { ID, TimestampColumn } from '../common/database/columns.js';
import type { ActorType } from './audit-actions.js';

/** One recorded change of an account (docs/audit.md), chained to the one before by `hash`. */
@Entity('audit_event')
@Index('UQ_audit_event_account_seq', ['accountId', 'seq'], { unique: true })
@Index('IDX_audit_event_account_id', ['accountId', 'id'])
export class AuditEvent {
  @PrimaryColumn(ID)
  id: string;

  @Column(ID)
  accountId: string;

  /** The event's place in its account's chain: 1, 2, 3… */
  @Column({ type: 'integer' })
  seq: number;

  @TimestampColumn()
  at: Date;

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

  /** JSON of the event's details (canonical: the text the hash covers). */
  @Column({ type: 'text' })
  details: string;

  @Column({ type: 'varchar', length: 64, nullable: true })
  ip: string | null;

  @Column({ type: 'varchar', length: 512, nullable: true })
  userAgent: string | null;

  /** SHA-256 (hex) of the previous event's hash and this event's canonical JSON. */
  @Column({ type: 'varchar', length: 64 })
  hash: string;
}
