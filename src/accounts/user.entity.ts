import {
  BeforeInsert,
  BeforeUpdate,
  Column,
  Entity,
  Index,
  PrimaryColumn,
} from 'typeorm';
import { ID, TimestampColumn } from '../common/database/columns.js';

/**
 * A person who signs in to the dashboard. What they may do in an account comes from their
 * membership of it (membership.entity.ts); a user may belong to several accounts.
 */
@Entity('user')
export class User {
  @PrimaryColumn(ID)
  id: string;

  @Index('UQ_user_email', { unique: true })
  @Column({ type: 'varchar', length: 254 })
  email: string;

  /** Null for a user who cannot sign in with a password. */
  @Column({ type: 'varchar', length: 255, nullable: true, select: false })
  passwordHash: string | null;

  /**
   * When the user opened the link mailed at sign-up and selected Verify (or accepted an
   * invitation sent to the address); null until then: nothing but that link is mailed to
   * an unverified address. Users older than verification count as verified.
   */
  @TimestampColumn({ nullable: true })
  emailVerifiedAt: Date | null;

  /** SHA-256 (hex) of the token of the last verification link; the token is only in the mail. */
  @Index('UQ_user_verify_token_hash', { unique: true })
  @Column({ type: 'varchar', length: 64, nullable: true, select: false })
  verifyTokenHash: string | null;

  @TimestampColumn({ nullable: true, select: false })
  verifyTokenExpiresAt: Date | null;

  /** When a verification link was last asked for (one a minute at most). */
  @TimestampColumn({ nullable: true, select: false })
  verifySentAt: Date | null;

  /** When the user last signed in to the dashboard; null: not since this was recorded. */
  @TimestampColumn({ nullable: true })
  lastSignInAt: Date | null;

  /** "Mail me when I am assigned" (profile page); on by default. */
  @Column({ type: 'boolean', default: true })
  mailOnAssign: boolean;

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
