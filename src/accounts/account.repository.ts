// Every statement on the account table AccountsService runs: a sign-up's account, and
// reading one.
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
}
