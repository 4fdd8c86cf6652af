import {
  BeforeInsert,
  BeforeUpdate,
  Column,
  Entity,
  JoinColumn,
  OneToOne,
  PrimaryColumn,
} from 'typeorm';
import { Account } from '../accounts/account.entity.js';
import type { Role } from '../auth/permissions.js';
import { ID, TimestampColumn } from '../common/database/columns.js';

/**
 * An account's single sign-on through its OpenID provider (docs/security.md). The client
 * secret is stored only encrypted (SecretBoxService) and never leaves the server.
 */
@Entity('sso_settings')
export class SsoSettings {
  @PrimaryColumn(ID)
  accountId: string;

  @OneToOne(() => Account, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'accountId' })
  account?: Account;

  /** The provider's issuer identifier; its discovery document is read from it. */
  @Column({ type: 'varchar', length: 500 })
  issuerUrl: string;

  @Column({ type: 'varchar', length: 255 })
  clientId: string;

  /** SecretBoxService-sealed client secret. */
  @Column({ type: 'varchar', length: 1000, select: false })
  clientSecretEncrypted: string;

  /** The role given to people who join through SSO: viewer, editor or developer. */
  @Column({ type: 'varchar', length: 16 })
  defaultRole: Role;

  /** Members whose address is in a verified SSO domain sign in only through SSO (owners excepted). */
  @Column({ type: 'boolean', default: false })
  requireSso: boolean;

  @TimestampColumn()
  createdAt: Date;

  @TimestampColumn()
  updatedAt: Date;

  @BeforeInsert()
  protected stampInsert(): void {
    this.createdAt ??= new Date();
    this.updatedAt ??= this.createdAt;
  }

  @BeforeUpdate()
  protected stampUpdate(): void {
    this.updatedAt = new Date();
  }
}
