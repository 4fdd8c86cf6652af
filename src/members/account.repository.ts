// The statements the members feature makes on the account table: its name, which
// invitations and the account switcher show, read and changed.
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository, type EntityManager } from 'typeorm';
import { Account } from '../accounts/account.entity.js';

@Injectable()
export class AccountRepository {
  constructor(
    @InjectRepository(Account) private readonly accounts: Repository<Account>,
  ) {}

  /** The account's name; '' when there is no such account. */
  async nameOf(accountId: string): Promise<string> {
    const account = await this.accounts.findOne({
      where: { id: accountId },
      select: { id: true, name: true },
    });
    return account?.name ?? '';
  }

  /** Renames the account in the caller's transaction; false when there is no such account. */
  async rename(
    manager: EntityManager,
    accountId: string,
    name: string,
    now: Date,
  ): Promise<boolean> {
    const result = await manager.update(
      Account,
      { id: accountId },
      { name, updatedAt: now },
    );
    return (result.affected ?? 0) > 0;
  }
}
