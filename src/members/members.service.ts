// An account's members: the list every role may read, and the changes (role, removal,
// leaving, the account's name) with their rules (docs/teams.md): owners only by owners, at
// most the actor's own role, and never the last owner.
import { SecondFactorsService } from '../second-factors/second-factors.service.js';
import {
  ConflictException,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import {
  memberActor,
  SYSTEM_ACTOR,
  type AuditActor,
} from '../audit/audit-actor.js';
import { AuditLogService } from '../audit/audit-log.service.js';
import type { ApiPrincipal } from '../auth/principal.js';
import type { Membership } from '../accounts/membership.entity.js';
import { MembershipsService } from '../accounts/memberships.service.js';
import type { Role } from '../auth/permissions.js';
import { ValidationFailedException } from '../common/errors/errors.js';
import {
  checkMayGive,
  checkMayManage,
  auditOf,
  type MemberActor,
} from './member-actor.js';
import { AccountRepository } from '../accounts/account.repository.js';
import { MembershipRepository } from '../accounts/membership.repository.js';

export const MEMBER_NOT_FOUND = 'Member not found';
export const LAST_OWNER =
  'An account needs an owner: make another member an owner first';
export const MAX_ACCOUNT_NAME_LENGTH = 200;

/** A member as the API and the Members page show them. */
export interface MemberView {
  userId: string;
  email: string;
  role: Role;
  /** Whether they sign in with a second factor. */
  twoFactor: boolean;
  /** When they joined the account. */
  createdAt: Date;
  lastSignInAt: Date | null;
}

@Injectable()
export class MembersService {
  constructor(
    private readonly memberships: MembershipRepository,
    private readonly accounts: AccountRepository,
    private readonly changes: MembershipsService,
    private readonly factors: SecondFactorsService,
    private readonly auditLog: AuditLogService,
  ) {}

  /** Every member of the account, who joined first first. */
  async list(accountId: string): Promise<MemberView[]> {
    const rows = await this.memberships.listWithUsers(accountId);
    const withFactor = await this.factors.usersWithFactor(
      rows.map((row) => row.userId),
    );
    return rows.map((row) => this.view(row, withFactor.has(row.userId)));
  }

  async find(accountId: string, userId: string): Promise<MemberView> {
    const row = await this.membership(accountId, userId);
    return this.view(row, await this.factors.hasFactor(row.userId));
  }

  /**
   * Gives a member another role: 404 for no such member, 403 beyond the actor's rights,
   * 409 when it would leave the account without an owner.
   */
  async changeRole(
    actor: MemberActor,
    userId: string,
    role: Role,
    now = new Date(),
  ): Promise<MemberView> {
    const member = await this.membership(actor.accountId, userId);
    checkMayManage(actor, member.role);
    checkMayGive(actor, role);
    if (member.role !== role) {
      const changed = await this.auditLog.recordChange(
        {
          ...auditOf(actor, 'member.role_changed', userId),
          details: {
            email: member.user?.email,
            role: { before: member.role, after: role },
          },
        },
        (manager) =>
          this.memberships
            .in(manager)
            .changeRole(actor.accountId, userId, role, now),
      );
      if (!changed) await this.refusedChange(actor.accountId, userId);
      this.changes.changed(actor.accountId, userId);
    }
    return this.find(actor.accountId, userId);
  }

  /** Removes a member: as changeRole for who may, and never the last owner (409). */
  async remove(actor: MemberActor, userId: string): Promise<void> {
    const member = await this.membership(actor.accountId, userId);
    checkMayManage(actor, member.role);
    const removed = await this.auditLog.recordChange(
      {
        ...auditOf(actor, 'member.removed', userId),
        details: { email: member.user?.email, role: member.role },
      },
      (manager) => this.memberships.in(manager).remove(actor.accountId, userId),
    );
    if (!removed) await this.refusedChange(actor.accountId, userId);
    this.changes.changed(actor.accountId, userId);
  }

  /** The member leaves the account themselves, unless they are its last owner (409). */
  async leave(
    accountId: string,
    userId: string,
    by?: ApiPrincipal,
  ): Promise<void> {
    const member = await this.membership(accountId, userId);
    const removed = await this.auditLog.recordChange(
      {
        accountId,
        actor: by ?? memberActor(userId, member.user?.email ?? ''),
        action: 'member.left',
        target: { type: 'member', id: userId },
        details: { email: member.user?.email, role: member.role },
      },
      (manager) => this.memberships.in(manager).remove(accountId, userId),
    );
    if (!removed) await this.refusedChange(accountId, userId);
    this.changes.changed(accountId, userId);
  }

  accountName(accountId: string): Promise<string> {
    return this.accounts.nameOf(accountId);
  }

  /** What invitations call the account: 1 to 200 characters, trimmed. */
  async rename(
    accountId: string,
    name: string,
    by: ApiPrincipal | AuditActor = SYSTEM_ACTOR,
  ): Promise<void> {
    const trimmed = name.trim();
    if (trimmed.length < 1 || trimmed.length > MAX_ACCOUNT_NAME_LENGTH) {
      throw new ValidationFailedException([
        `name must be 1 to ${MAX_ACCOUNT_NAME_LENGTH} characters long`,
      ]);
    }
    const before = await this.accountName(accountId);
    await this.auditLog.recordChange(
      {
        accountId,
        actor: by,
        action: 'account.renamed',
        target: { type: 'account', id: accountId },
        details: { name: { before, after: trimmed } },
      },
      (manager) =>
        this.accounts.in(manager).rename(accountId, trimmed, new Date()),
    );
    // Every member's switcher and pages show the name.
    this.changes.changed(accountId);
  }

  /** A conditional change changed nothing: the member went meanwhile, or is the last owner. */
  private async refusedChange(
    accountId: string,
    userId: string,
  ): Promise<never> {
    if (await this.memberships.exists(accountId, userId)) {
      throw new ConflictException(LAST_OWNER);
    }
    throw new NotFoundException(MEMBER_NOT_FOUND);
  }

  private async membership(
    accountId: string,
    userId: string,
  ): Promise<Membership> {
    const row =
      typeof userId === 'string' && userId.length <= 32
        ? await this.memberships.findWithUser(accountId, userId)
        : null;
    if (!row) throw new NotFoundException(MEMBER_NOT_FOUND);
    return row;
  }

  private view(row: Membership, twoFactor: boolean): MemberView {
    return {
      userId: row.userId,
      email: row.user?.email ?? '',
      role: row.role,
      // TOTP or a passkey.
      twoFactor,
      createdAt: row.createdAt,
      lastSignInAt: row.user?.lastSignInAt ?? null,
    };
  }
}
