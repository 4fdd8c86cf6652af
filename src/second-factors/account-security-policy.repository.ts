// Every statement on account_security_policy: whether an account's members must use a
// second factor.
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository, type EntityManager } from 'typeorm';
import { AccountSecurityPolicy } from './account-security-policy.entity.js';

@Injectable()
export class AccountSecurityPolicyRepository {
  constructor(
    @InjectRepository(AccountSecurityPolicy)
    private readonly policies: Repository<AccountSecurityPolicy>,
  ) {}

  /** This repository working in `manager`'s transaction (a change and its audit event). */
  in(manager: EntityManager): AccountSecurityPolicyRepository {
    return new AccountSecurityPolicyRepository(
      manager.getRepository(AccountSecurityPolicy),
    );
  }

  find(accountId: string): Promise<AccountSecurityPolicy | null> {
    return this.policies.findOneBy({ accountId });
  }

  /** Writes the account's policy, making its row the first time. */
  async put(
    accountId: string,
    requireSecondFactor: boolean,
    at: Date,
  ): Promise<void> {
    await this.policies.upsert(
      { accountId, requireSecondFactor, updatedAt: at },
      ['accountId'],
    );
  }
}
