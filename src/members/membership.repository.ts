// Every statement the members feature makes on the membership table: the account's members
// with their users, and the changes — a role, a removal (each one conditional statement that
// keeps the last owner, membership-sql.ts), a person joining — in the caller's transaction,
// beside its audit event.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { Membership } from '../accounts/membership.entity.js';
import type { Role } from '../auth/permissions.js';
import type { SqlStatement } from '../common/database/sql-statement.js';
import { MembershipSql } from './membership-sql.js';

@Injectable()
export class MembershipRepository {
  private readonly sql: MembershipSql;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.sql = new MembershipSql(
      dataSource.options.type === 'better-sqlite3' ? 'sqlite' : 'mysql',
    );
  }

  private get memberships() {
    return this.dataSource.getRepository(Membership);
  }

  /** Every member of the account with their user, who joined first first. */
  listWithUsers(accountId: string): Promise<Membership[]> {
    return this.memberships.find({
      where: { accountId },
      relations: { user: true },
      order: { createdAt: 'ASC', userId: 'ASC' },
    });
  }

  findWithUser(accountId: string, userId: string): Promise<Membership | null> {
    return this.memberships.findOne({
      where: { accountId, userId },
      relations: { user: true },
    });
  }

  exists(accountId: string, userId: string): Promise<boolean> {
    return this.memberships.existsBy({ accountId, userId });
  }

  /** Whether the user belongs to any account. */
  hasAny(userId: string): Promise<boolean> {
    return this.memberships.existsBy({ userId });
  }

  countInAccount(accountId: string): Promise<number> {
    return this.memberships.countBy({ accountId });
  }

  /** Gives the member `role` unless that takes the last owner away; true when it changed. */
  changeRole(
    manager: EntityManager,
    accountId: string,
    userId: string,
    role: Role,
    now: Date,
  ): Promise<boolean> {
    return this.execute(
      manager,
      this.sql.changeRole(accountId, userId, role, now),
    );
  }

  /** Deletes the membership unless it is the last owner's; true when it went. */
  remove(
    manager: EntityManager,
    accountId: string,
    userId: string,
  ): Promise<boolean> {
    return this.execute(manager, this.sql.remove(accountId, userId));
  }

  /** In the caller's transaction: whether the user is a member already. */
  existsIn(
    manager: EntityManager,
    accountId: string,
    userId: string,
  ): Promise<boolean> {
    return manager.existsBy(Membership, { accountId, userId });
  }

  /** The user joins the account with `role`, in the caller's transaction. */
  async insert(
    manager: EntityManager,
    row: Pick<Membership, 'accountId' | 'userId' | 'role'>,
    now: Date,
  ): Promise<void> {
    await manager.insert(Membership, {
      ...row,
      createdAt: now,
      updatedAt: now,
    });
  }

  private async execute(
    manager: EntityManager,
    { sql, params }: SqlStatement,
  ): Promise<boolean> {
    const result = await manager.queryRunner!.query(sql, params, true);
    return ((result as { affected?: number }).affected ?? 0) > 0;
  }
}
