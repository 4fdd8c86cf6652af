// A member's second factor added or removed, as audit events (docs/audit.md): recorded in
// every account the user belongs to, in the transaction of the change.
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { MembershipRepository } from '../accounts/membership.repository.js';
import type { AuditActor } from '../audit/audit-actor.js';
import type { AuditDetails } from '../audit/audit-hash.js';
import { AuditLogService } from '../audit/audit-log.service.js';
import type { ApiPrincipal } from '../auth/principal.js';

export type FactorKind = 'totp' | 'passkey';
export type FactorActor = ApiPrincipal | AuditActor;

@Injectable()
export class FactorAuditRecorder {
  constructor(
    private readonly auditLog: AuditLogService,
    private readonly memberships: MembershipRepository,
  ) {}

  /**
   * Runs `change` in a transaction; when it reports a change (true), records `action` with
   * `details` in every account of `userId`, in the same transaction.
   */
  async recorded(
    userId: string,
    actor: FactorActor,
    action: 'member.second_factor_added' | 'member.second_factor_removed',
    details: AuditDetails,
    change: (manager: EntityManager) => Promise<boolean>,
  ): Promise<boolean> {
    return this.auditLog.transaction(async (manager) => {
      if (!(await change(manager))) return false;
      const accountIds = await this.memberships
        .in(manager)
        .accountIdsOf(userId);
      for (const accountId of accountIds) {
        await this.auditLog.record(manager, {
          accountId,
          actor,
          action,
          target: { type: 'member', id: userId },
          details,
        });
      }
      return true;
    });
  }
}
