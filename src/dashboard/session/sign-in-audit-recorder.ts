// Sign-ins as audit events (docs/audit.md): each one, succeeded or failed, is recorded in
// every account its user belongs to; an address without a user belongs to none.
import { Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { AccountsService } from '../../accounts/accounts.service.js';
import { MembershipsService } from '../../accounts/memberships.service.js';
import type { AuditAction } from '../../audit/audit-actions.js';
import { memberActor } from '../../audit/audit-actor.js';
import { AuditLogService } from '../../audit/audit-log.service.js';

@Injectable()
export class SignInAuditRecorder {
  constructor(
    private readonly accounts: AccountsService,
    private readonly memberships: MembershipsService,
    private readonly auditLog: AuditLogService,
  ) {}

  async succeeded(
    user: { id: string; email: string },
    request: FastifyRequest,
    method = 'password',
  ): Promise<void> {
    await this.record(user, 'sign_in.succeeded', request, { method });
  }

  async failed(
    email: string,
    request: FastifyRequest,
    reason = 'wrong password',
  ): Promise<void> {
    const user = await this.accounts.findUserByEmail(email);
    if (!user) return;
    await this.record(user, 'sign_in.failed', request, { reason });
  }

  private async record(
    user: { id: string; email: string },
    action: AuditAction,
    request: FastifyRequest,
    details: Record<string, unknown>,
  ): Promise<void> {
    const client = {
      ip: request.ip ?? null,
      userAgent: request.headers['user-agent'] ?? null,
    };
    for (const { accountId } of await this.memberships.accountsOf(user.id)) {
      await this.auditLog.recordAlone({
        accountId,
        actor: memberActor(user.id, user.email),
        action,
        target: { type: 'member', id: user.id },
        details,
        client,
      });
    }
  }
}
