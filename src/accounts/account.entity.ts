import {
  BeforeInsert,
  BeforeUpdate,
  Column,
  Entity,
  PrimaryColumn,
} from 'typeorm';
import { ID, TimestampColumn } from '../common/database/columns.js';

/**
 * The tenant: it owns forms, keys, webhooks and settings. The people who work in it are
 * its members (membership.entity.ts), each with a role.
 */
@Entity('account')
export class Account {
  @PrimaryColumn(ID)
  id: string;

  /** What members and invitations call the account; its first owner's address at first. */
  @Column({ type: 'varchar', length: 200 })
  name: string;

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
