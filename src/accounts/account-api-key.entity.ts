import {
  BeforeInsert,
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
} from 'typeorm';
import type { KeyRole } from '../auth/permissions.js';
import { ID, TimestampColumn } from '../common/database/columns.js';
import { Account } from './account.entity.js';

/** An account-wide API key (prefix `fga_`), used by internal services. */
@Entity('account_api_key')
export class AccountApiKey {
  @PrimaryColumn(ID)
  id: string;

  @Index()
  @Column(ID)
  accountId: string;

  @ManyToOne(() => Account, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'accountId' })
  account?: Account;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  /** SHA-256 of the full key, hex: the only lookup path. */
  @Index('UQ_account_api_key_hash', { unique: true })
  @Column({ type: 'varchar', length: 64, select: false })
  keyHash: string;

  /** The first characters of the key, safe to show. */
  @Column({ type: 'varchar', length: 16 })
  prefix: string;

  @TimestampColumn()
  createdAt: Date;

  @TimestampColumn({ nullable: true })
  lastUsedAt: Date | null;

  @TimestampColumn({ nullable: true })
  revokedAt: Date | null;

  /** What the key may do (docs/teams.md): at most its creator's role, never `owner`. */
  @Column({ type: 'varchar', length: 16 })
  role: KeyRole;

  /** Kept in step with `role`: a read-only key is a `viewer` (the API shows both). */
  @Column({ type: 'boolean', default: false })
  readOnly: boolean;

  /** From this moment on the key is refused (403); null: it never expires. */
  @TimestampColumn({ nullable: true })
  expiresAt: Date | null;

  @BeforeInsert()
  protected stampInsert(): void {
    this.createdAt ??= new Date();
  }
}
