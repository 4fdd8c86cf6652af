// Every statement on the membership table: a sign-up's owner, a user's accounts, putting
// and ending a membership, an account's members with their users, and the members
// feature's changes — a role, a removal (each one conditional statement that keeps the
// last owner, membership-sql.ts), a person joining — in the caller's transaction
// (`in(manager)`), beside its audit event.
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository, type EntityManager } from 'typeorm';
import type { Role } from '../auth/permissions.js';
import type { SqlStatement } from '../common/database/sql-statement.js';
import { Account } from './account.entity.js';
import { Membership } from './membership.entity.js';
import { MembershipSql } from './membership-sql.js';

/** One account a user belongs to, by name. */
export interface AccountMembershipRow {
  accountId: string;
  accountName: string;
  role: Role;
}

@Injectable()
export class MembershipRepository {
  private readonly sql: MembershipSql;

  constructor(
    @InjectRepository(Membership)
    private readonly memberships: Repository<Membership>,
  ) {
    this.sql = new MembershipSql(
      memberships.manager.connection.options.type === 'better-sqlite3'
        ? 'sqlite'
        : 'mysql',
    );
  }

  /** This repository working in `manager`'s transaction. */
  in(manager: EntityManager): MembershipRepository {
    return new MembershipRepository(manager.getRepository(Membership));
  }

  async insert(
    membership: Omit<Membership, 'account' | 'user'>,
  ): Promise<void> {
    await this.memberships.insert(membership);
  }

  /** Every account the user belongs to, by account name. */
  accountsOf(userId: string): Promise<AccountMembershipRow[]> {
    return this.memberships
      .createQueryBuilder('membership')
      .innerJoin(Account, 'account', 'account.id = membership.accountId')
      .select('membership.accountId', 'accountId')
      .addSelect('account.name', 'accountName')
      .addSelect('membership.role', 'role')
      .where('membership.userId = :userId', { userId })
      .orderBy('account.name', 'ASC')
      .addOrderBy('membership.accountId', 'ASC')
      .getRawMany<AccountMembershipRow>();
  }

  /** The ids of the accounts the user owns, oldest membership first. */
  async ownedBy(userId: string): Promise<string[]> {
    const owned = await this.memberships.find({
      where: { userId, role: 'owner' },
      order: { createdAt: 'ASC', accountId: 'ASC' },
    });
    return owned.map((membership) => membership.accountId);
  }

  /** The ids of every account the user belongs to, in id order. */
  async accountIdsOf(userId: string): Promise<string[]> {
    const memberships = await this.memberships.find({
      select: { accountId: true },
      where: { userId },
      order: { accountId: 'ASC' },
    });
    return memberships.map((membership) => membership.accountId);
  }

  /** Gives the user this role in the account, making them a member if they were not. */
  async put(
    accountId: string,
    userId: string,
    role: Role,
    now: Date,
  ): Promise<void> {
    const updated = await this.memberships.update(
      { accountId, userId },
      { role, updatedAt: now },
    );
    if (!updated.affected) {
      await this.memberships.insert({
        accountId,
        userId,
        role,
        createdAt: now,
        updatedAt: now,
      });
    }
  }

  countOf(accountId: string): Promise<number> {
    return this.memberships.countBy({ accountId });
  }

  /** Ends the membership; false when there was none. */
  async delete(accountId: string, userId: string): Promise<boolean> {
    const result = await this.memberships.delete({ accountId, userId });
    return (result.affected ?? 0) > 0;
  }

  // ---- the members feature -----------------------------------------------------------

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

  /** Gives the member `role` unless that takes the last owner away; true when it changed. */
  changeRole(
    accountId: string,
    userId: string,
    role: Role,
    now: Date,
  ): Promise<boolean> {
    return this.execute(this.sql.changeRole(accountId, userId, role, now));
  }

  /** Deletes the membership unless it is the last owner's; true when it went. */
  remove(accountId: string, userId: string): Promise<boolean> {
    return this.execute(this.sql.remove(accountId, userId));
  }

  /** Runs one of membership-sql.ts's statements; true when it changed a row. */
  private async execute({ sql, params }: SqlStatement): Promise<boolean> {
    const { manager } = this.memberships;
    const runner =
      manager.queryRunner ?? manager.connection.createQueryRunner();
    try {
      const result = await runner.query(sql, params, true);
      return ((result as { affected?: number }).affected ?? 0) > 0;
    } finally {
      if (runner !== manager.queryRunner) await runner.release();
    }
  }
}
