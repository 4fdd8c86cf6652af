import {
  BeforeInsert,
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
} from 'typeorm';
import { Account } from '../accounts/account.entity.js';
import { ID, TimestampColumn } from '../common/database/columns.js';

export type SsoDomainStatus = 'pending' | 'verified';

/**
 * A domain an account claims for single sign-on. It routes sign-ins only once proven by
 * the DNS TXT record of DESIGN 7 (`formgate-verification=<token>` on the domain or on
 * `_formgate.<domain>`), so one account cannot send another company's people to its IdP.
 */
@Entity('sso_domain')
@Index('UQ_sso_domain_account_domain', ['accountId', 'domain'], {
  unique: true,
})
@Index('IDX_sso_domain_domain', ['domain'])
export class SsoDomain {
  @PrimaryColumn(ID)
  id: string;

  @Column(ID)
  accountId: string;

  @ManyToOne(() => Account, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'accountId' })
  account?: Account;

  /** Lower-case ASCII (IDNA) host name. */
  @Column({ type: 'varchar', length: 253 })
  domain: string;

  @Column({ type: 'varchar', length: 64 })
  token: string;

  @Column({ type: 'varchar', length: 16 })
  status: SsoDomainStatus;

  @TimestampColumn({ nullable: true })
  verifiedAt: Date | null;

  @TimestampColumn({ nullable: true })
  lastCheckedAt: Date | null;

  @Column({ type: 'varchar', length: 500, nullable: true })
  lastError: string | null;

  @TimestampColumn()
  createdAt: Date;

  @BeforeInsert()
  protected stampInsert(): void {
    this.createdAt ??= new Date();
  }
}
