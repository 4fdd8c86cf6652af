// The statements on membership that accounts/ runs: a sign-up's owner, a user's accounts,
// putting and ending a membership, counting an account's members. (The last-owner rule's conditional statements are members/'s, in
// members/membership-sql.ts.)
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository, type EntityManager } from 'typeorm';
import type { Role } from '../auth/permissions.js';
import { Account } from './account.entity.js';
import { Membership } from './membership.entity.js';

/** One account a user belongs to, by name. */
export interface AccountMembershipRow {
  accountId: string;
  accountName: string;
  role: Role;
}

@Injectable()
export class MembershipRepository {
  constructor(
    @InjectRepository(Membership)
    private readonly memberships: Repository<Membership>,
  ) {}

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
}
