import {
  BeforeInsert,
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
} from 'typeorm';
import type { Role } from '../auth/permissions.js';
import { ID, TimestampColumn } from '../common/database/columns.js';
import { Account } from './account.entity.js';
import { User } from './user.entity.js';

/**
 * An address asked by email to join an account with a role (docs/teams.md). Pending until
 * it is accepted, revoked or expires; the rows stay afterwards, so an old link answers 410
 * rather than 404.
 */
@Entity('invitation')
@Index('IDX_invitation_account_email', ['accountId', 'email'])
export class Invitation {
  @PrimaryColumn(ID)
  id: string;

  @Column(ID)
  accountId: string;

  @ManyToOne(() => Account, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'accountId' })
  account?: Account;

  /** Lower-case, as users' addresses are. */
  @Column({ type: 'varchar', length: 254 })
  email: string;

  /** The role the invited person gets on accepting. */
  @Column({ type: 'varchar', length: 16 })
  role: Role;

  /** SHA-256 (hex) of the token in the link; the token itself is only in the mail. */
  @Index('UQ_invitation_token_hash', { unique: true })
  @Column({ type: 'varchar', length: 64, select: false })
  tokenHash: string;

  /** The member who invited; null when a key did (or that person is gone). */
  @Column({ ...ID, nullable: true })
  invitedByUserId: string | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'invitedByUserId' })
  invitedBy?: User;

  /** Who invited, as the mail and the lists say it: the member's address or the key's name. */
  @Column({ type: 'varchar', length: 254 })
  invitedByLabel: string;

  @TimestampColumn()
  expiresAt: Date;

  @TimestampColumn()
  createdAt: Date;

  @TimestampColumn({ nullable: true })
  acceptedAt: Date | null;

  @TimestampColumn({ nullable: true })
  revokedAt: Date | null;

  @BeforeInsert()
  protected stampInsert(): void {
    this.createdAt ??= new Date();
  }
}
