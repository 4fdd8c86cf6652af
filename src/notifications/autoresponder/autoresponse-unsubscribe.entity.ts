import { Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Account } from '../../accounts/account.entity.js';
import { ID, TimestampColumn } from '../../common/database/columns.js';

/**
 * An address that asked an account to send it no more autoresponses (the one-click link
 * of RFC 8058). Only a hash of the address is kept: enough to recognise it, nothing to mail.
 */
@Entity('autoresponse_unsubscribe')
export class AutoresponseUnsubscribe {
  @PrimaryColumn(ID)
  accountId: string;

  @ManyToOne(() => Account, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'accountId' })
  account?: Account;

  /** SHA-256 of the lower-cased address, hex. */
  @PrimaryColumn({ type: 'varchar', length: 64 })
  addressHash: string;

  @TimestampColumn()
  createdAt: Date;
}
