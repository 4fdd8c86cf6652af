import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Account } from '../accounts/account.entity.js';
import { ID, TimestampColumn } from '../common/database/columns.js';

/** An account's sign-in policy; no row: nothing required. */
@Entity('account_security_policy')
export class AccountSecurityPolicy {
  @PrimaryColumn(ID)
  accountId: string;

  @ManyToOne(() => Account, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'accountId' })
  account?: Account;

  /** Members must use a second factor (TOTP or a passkey). */
  @Column({ type: 'boolean', default: false })
  requireSecondFactor: boolean;

  @TimestampColumn()
  updatedAt: Date;
}
