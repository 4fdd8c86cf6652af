import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AccountSecurityPolicy } from './account-security-policy.entity.js';

/** An account's sign-in policy: "members must use a second factor". */
@Injectable()
export class SecurityPolicyService {
  constructor(
    @InjectRepository(AccountSecurityPolicy)
    private readonly policies: Repository<AccountSecurityPolicy>,
  ) {}

  async requiresSecondFactor(accountId: string): Promise<boolean> {
    const row = await this.policies.findOneBy({ accountId });
    return row?.requireSecondFactor ?? false;
  }

  /** Policy changed. */
  async setRequireSecondFactor(
    accountId: string,
    required: boolean,
  ): Promise<void> {
    await this.policies.upsert(
      { accountId, requireSecondFactor: required, updatedAt: new Date() },
      ['accountId'],
    );
  }
}
