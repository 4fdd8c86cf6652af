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

  @TimestampColumn()
  createdAt: Date;

  @TimestampColumn()
  expiresAt: Date;

  @BeforeInsert()
  protected stampInsert(): void {
    this.createdAt ??= new Date();
  }
}
