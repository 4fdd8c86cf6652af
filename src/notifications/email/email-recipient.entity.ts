import {
  BeforeInsert,
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  Unique,
} from 'typeorm';
import { Account } from '../../accounts/account.entity.js';
import { ID, TimestampColumn } from '../../common/database/columns.js';

export type RecipientStatus = 'pending' | 'confirmed';

/**
 * An address an account notifies, and whether its owner has confirmed the link mailed to
 * it (double opt-in). One row per account and address, whatever number of the account's
 * forms list it: confirming once confirms it for all of them.
 */
@Entity('email_recipient')
@Unique('UQ_email_recipient_account_address', ['accountId', 'address'])
export class EmailRecipient {
  @PrimaryColumn(ID)
  id: string;

  @Column(ID)
  accountId: string;

  @ManyToOne(() => Account, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'accountId' })
  account?: Account;

  /** Lower-case. */
  @Column({ type: 'varchar', length: 254 })
  address: string;

  @Column({ type: 'varchar', length: 16, default: 'pending' })
  status: RecipientStatus;

  /**
   * SHA-256 (hex) of the token in the confirmation link; the token itself is only in the
   * mail. null until a confirmation mail was sent (mail off, or the send failed).
   */
  @Index('UQ_email_recipient_token_hash', { unique: true })
  @Column({ type: 'varchar', length: 64, nullable: true })
  tokenHash: string | null;

  /** When the link stops working; also when another confirmation mail may be sent. */
  @TimestampColumn({ nullable: true })
  tokenExpiresAt: Date | null;

  @TimestampColumn({ nullable: true })
  confirmedAt: Date | null;

  /**
   * Why the last confirmation mail could not be sent (the SMTP server's answer, or the
   * connection's failure), shown to the owner; null once one was sent.
   */
  @Column({ type: 'varchar', length: 500, nullable: true })
  lastError: string | null;

  @TimestampColumn({ nullable: true })
  lastErrorAt: Date | null;

  @TimestampColumn()
  createdAt: Date;

  @BeforeInsert()
  protected stampInsert(): void {
    this.createdAt ??= new Date();
  }
}
