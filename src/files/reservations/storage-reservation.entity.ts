import { Column, Entity, PrimaryColumn } from 'typeorm';
import { ID, TimestampColumn } from '../../common/database/columns.js';

/**
 * The bytes an account's uploads in progress have reserved of its MAX_STORAGE_PER_ACCOUNT,
 * beside what its stored files hold (stored_file). A file's bytes are reserved by one
 * conditional UPDATE of this row before they are written (StorageReservationRepository), so
 * uploads racing each other never pass the cap; what a file did not use, and what its
 * submission committed or dropped, is given back.
 */
@Entity('storage_reservation')
export class StorageReservation {
  @PrimaryColumn(ID)
  accountId: string;

  @Column({ type: 'bigint', default: 0 })
  reservedBytes: string;

  /** The last reservation or release (a row idle for long holds only leftovers). */
  @TimestampColumn({ nullable: true })
  updatedAt: Date | null;
}
