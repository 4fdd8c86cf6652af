// Every statement on the account table: a sign-up's account (AccountsService), reading
// one, and its name, which invitations and the account switcher show, read and changed
// (the members feature).
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository, type EntityManager } from 'typeorm';
import { Account } from './account.entity.js';

@Injectable()
export class AccountRepository {
  constructor(
    @InjectRepository(Account) private readonly accounts: Repository<Account>,
  ) {}

  /** This repository working in `manager`'s transaction. */
  in(manager: EntityManager): AccountRepository {
    return new AccountRepository(manager.getRepository(Account));
  }

  create(values: Partial<Account>): Account {
    return this.accounts.create(values);
  }

  async insert(account: Account): Promise<void> {
    await this.accounts.insert(account);
  }

  findById(id: string): Promise<Account | null> {
    return this.accounts.findOneBy({ id });
  }

  /** The account's name; '' when there is no such account. */
  async nameOf(id: string): Promise<string> {
    const account = await this.accounts.findOne({
      where: { id },
      select: { id: true, name: true },
    });
    return account?.name ?? '';
  }

  /** Renames the account; false when there is no such account. */
  async rename(id: string, name: string, now: Date): Promise<boolean> {
    const result = await this.accounts.update({ id }, { name, updatedAt: now });
    return (result.affected ?? 0) > 0;
  }
}
