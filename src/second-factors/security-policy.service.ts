import { Injectable } from '@nestjs/common';
import { SYSTEM_ACTOR } from '../audit/audit-actor.js';
import { AuditLogService } from '../audit/audit-log.service.js';
import { AccountSecurityPolicyRepository } from './account-security-policy.repository.js';
import type { FactorActor } from './factor-audit-recorder.js';

/** An account's sign-in policy: "members must use a second factor". */
@Injectable()
export class SecurityPolicyService {
  constructor(
    private readonly policies: AccountSecurityPolicyRepository,
    private readonly auditLog: AuditLogService,
  ) {}

  async requiresSecondFactor(accountId: string): Promise<boolean> {
    const row = await this.policies.find(accountId);
    return row?.requireSecondFactor ?? false;
  }

  /** Policy changed (`security_policy.updated`, before → after; no change is no event). */
  async setRequireSecondFactor(
    accountId: string,
    required: boolean,
    actor: FactorActor = SYSTEM_ACTOR,
  ): Promise<void> {
    await this.auditLog.transaction(async (manager) => {
      const policies = this.policies.in(manager);
      const row = await policies.find(accountId);
      const before = row?.requireSecondFactor ?? false;
      await policies.put(accountId, required, new Date());
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
