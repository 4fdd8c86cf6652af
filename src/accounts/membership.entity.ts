import {
  BeforeInsert,
  BeforeUpdate,
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

/** A user's place in an account: one role (docs/teams.md lists what each may do). */
@Entity('membership')
export class Membership {
  @PrimaryColumn(ID)
  accountId: string;

  @Index('IDX_membership_user')
  @PrimaryColumn(ID)
  userId: string;

  @ManyToOne(() => Account, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'accountId' })
  account?: Account;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'userId' })
  user?: User;

  @Column({ type: 'varchar', length: 16 })
  role: Role;

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
