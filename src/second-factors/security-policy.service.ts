import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { SYSTEM_ACTOR } from '../audit/audit-actor.js';
import { AuditLog } from '../audit/audit-log.service.js';
import { AccountSecurityPolicy } from './account-security-policy.entity.js';
import type { FactorActor } from './factor-audit-recorder.js';

/** An account's sign-in policy: "members must use a second factor". */
@Injectable()
export class SecurityPolicyService {
  constructor(
    @InjectRepository(AccountSecurityPolicy)
    private readonly policies: Repository<AccountSecurityPolicy>,
    private readonly auditLog: AuditLog,
  ) {}

  async requiresSecondFactor(accountId: string): Promise<boolean> {
    const row = await this.policies.findOneBy({ accountId });
    return row?.requireSecondFactor ?? false;
  }

  /** Policy changed (`security_policy.updated`, before → after; no change is no event). */
  async setRequireSecondFactor(
    accountId: string,
    required: boolean,
    actor: FactorActor = SYSTEM_ACTOR,
  ): Promise<void> {
    await this.auditLog.transaction(async (manager) => {
      const row = await manager.findOneBy(AccountSecurityPolicy, { accountId });
      const before = row?.requireSecondFactor ?? false;
      await manager.upsert(
        AccountSecurityPolicy,
        { accountId, requireSecondFactor: required, updatedAt: new Date() },
        ['accountId'],
      );
      if (before === required) return;
      await this.auditLog.record(manager, {
        accountId,
        actor,
        action: 'security_policy.updated',
        target: { type: 'account', id: accountId },
        details: { requireSecondFactor: { before, after: required } },
      });
    });
  }
}
