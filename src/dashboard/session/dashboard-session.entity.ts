import {
  BeforeInsert,
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
} from 'typeorm';
import { Account } from '../../accounts/account.entity.js';
import { User } from '../../accounts/user.entity.js';
import { ID, TimestampColumn } from '../../common/database/columns.js';

import type { SignInMethod } from '../sign-in-method.js';

export { SIGN_IN_METHODS, type SignInMethod } from '../sign-in-method.js';

/**
 * A signed-in dashboard session. The cookie carries a random token; only its SHA-256
 * is stored, so deleting the row (logout, password change) revokes every copy of the cookie.
 * `userId` is who signed in; `accountId` the account they are working in (they switch it
 * among the accounts they are a member of).
 */
@Entity('dashboard_session')
export class DashboardSession {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  tokenHash: string;

  @Index()
  @Column(ID)
  userId: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'userId' })
  user?: User;

  @Index()
  @Column(ID)
  accountId: string;

  @ManyToOne(() => Account, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'accountId' })
  account?: Account;

  /** Secret for the CSRF tokens of this session's forms. */
  @Column({ type: 'varchar', length: 64 })
  csrfSecret: string;

  /** How it signed in: `password`, `password+totp`, `password+passkey`, `passkey`, `sso`. */
  @Column({ type: 'varchar', length: 24, default: 'password' })
  method: SignInMethod;

  /**
   * The password was right but a second factor is still owed: such a half-signed-in
   * session reaches only the second step (and signing out), nothing else.
   */
  @Column({ type: 'boolean', default: false })
  secondFactorPending: boolean;

  /** The browser's User-Agent when it signed in (cut to 255 characters). */
  @Column({ type: 'varchar', length: 255, nullable: true })
  userAgent: string | null;

  /** The client address of its latest request. */
  @Column({ type: 'varchar', length: 45, nullable: true })
  ipAddress: string | null;

  /** Its latest request (written at most once a minute). */
  @TimestampColumn({ nullable: true })
  lastSeenAt: Date | null;

  @TimestampColumn()
  createdAt: Date;

  @TimestampColumn()
  expiresAt: Date;

  @BeforeInsert()
  protected stampInsert(): void {
    this.createdAt ??= new Date();
  }
}
