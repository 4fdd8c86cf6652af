import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { TimestampColumn } from '../common/database/columns.js';

/**
 * An Idempotency-Key as used: the fingerprint of the first request, and once it has
 * answered 2xx, that answer (encrypted under APP_SECRET, since it may carry a new key)
 * for 24 hours. A row without a status is a request still in flight. Inserting the row is
 * what claims the key, on any instance; expired rows are swept.
 */
@Entity('idempotency_record')
@Index('IDX_idempotency_record_expires', ['expiresAt'])
export class IdempotencyRecord {
  /** Hex SHA-256 of the scope and the key (idempotency-key.ts). */
  @PrimaryColumn({ type: 'varchar', length: 64 })
  id: string;

  /** Hex SHA-256 of the method, path and body. */
  @Column({ type: 'varchar', length: 64 })
  fingerprint: string;

  /** The answer's status; null while the first request is in flight. */
  @Column({ type: 'integer', nullable: true })
  status: number | null;

  /** The answer's body, sealed by SecretBoxService, as a JSON string; null while in flight. */
  @Column({ type: 'json', nullable: true })
  response: string | null;

  @TimestampColumn()
  createdAt: Date;

  @TimestampColumn()
  expiresAt: Date;
}
