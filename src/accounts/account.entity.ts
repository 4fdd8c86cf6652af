import {
  BeforeInsert,
  BeforeUpdate,
  Column,
  Entity,
  Index,
  PrimaryColumn,
} from 'typeorm';
import { ID, TimestampColumn } from '../common/database/columns.js';

/** A form owner: signs in to the dashboard and owns forms and account API keys. */
@Entity('account')
export class Account {
  @PrimaryColumn(ID)
  id: string;

  @Index('UQ_account_email', { unique: true })
  @Column({ type: 'varchar', length: 254 })
  email: string;

  @Column({ type: 'varchar', length: 255, select: false })
  passwordHash: string;

  /**
   * When the owner opened the link mailed at sign-up and selected Verify; null until then
   * (no alert is mailed to an unverified address). Accounts older than verification count
   * as verified (set by its migration).
   */
  @TimestampColumn({ nullable: true })
  emailVerifiedAt: Date | null;

  /** SHA-256 (hex) of the token of the last verification link; the token is only in the mail. */
  @Index('UQ_account_verify_token_hash', { unique: true })
  @Column({ type: 'varchar', length: 64, nullable: true, select: false })
  verifyTokenHash: string | null;

  @TimestampColumn({ nullable: true, select: false })
  verifyTokenExpiresAt: Date | null;

  /** When a verification link was last asked for (one a minute at most). */
  @TimestampColumn({ nullable: true, select: false })
  verifySentAt: Date | null;

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
