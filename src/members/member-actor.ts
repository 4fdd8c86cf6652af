// Who changes an account's members, and the rules about roles every change follows, in one
// place for the API (account keys) and the dashboard (members). docs/teams.md has the table.
import { ForbiddenException } from '@nestjs/common';
import { roleAtMost, type Role } from '../auth/permissions.js';
import type { ApiPrincipal } from '../auth/principal.js';
import type { AuditAction } from '../audit/audit-actions.js';
import { SYSTEM_ACTOR } from '../audit/audit-actor.js';
import type { AuditRecord } from '../audit/audit-log.service.js';

export interface MemberActor {
  /** `key` over the API, `member` in the dashboard. */
  kind: 'key' | 'member';
  accountId: string;
  role: Role;
  /** The acting person; null for a key. */
  userId: string | null;
  /** Their address, or the key's name: how an invitation names who sent it. */
  label: string;
  /** The request's principal, as the audit log records who acted. */
  by?: ApiPrincipal;
}

/** "This key cannot …" on the API, "You cannot …" in the dashboard. */
export function refusal(actor: MemberActor, what: string): ForbiddenException {
  const who = actor.kind === 'key' ? 'This key' : 'You';
  return new ForbiddenException(`${who} cannot ${what}`);
}

/** 403 unless the actor may give `role` to someone (at most its own; owners by owners only). */
export function checkMayGive(actor: MemberActor, role: Role): void {
  if (role === 'owner' && actor.role !== 'owner') {
    throw refusal(actor, 'make someone an owner');
  }
  if (!roleAtMost(role, actor.role)) {
    throw refusal(
      actor,
      `give a role above ${actor.kind === 'key' ? 'its' : 'your'} own`,
    );
  }
}

/**
 * 403 unless the actor may change or remove a membership with `role`: an owner's only an
 * owner may, in the dashboard (keys are never owners).
 */
export function checkMayManage(actor: MemberActor, role: Role): void {
  if (role === 'owner' && actor.role !== 'owner') {
    throw refusal(actor, "change an owner's membership");
  }
  if (!roleAtMost(role, actor.role)) {
    throw refusal(
      actor,
      `change a member whose role is above ${actor.kind === 'key' ? 'its' : 'your'} own`,
    );
  }
}

/** 403 unless the actor may resend or revoke an invitation with `role` (as checkMayGive). */
export function checkMayManageInvitation(actor: MemberActor, role: Role): void {
  if (role === 'owner' && actor.role !== 'owner') {
    throw refusal(actor, 'manage an invitation as owner');
  }
  if (!roleAtMost(role, actor.role)) {
    throw refusal(
      actor,
      `manage an invitation above ${actor.kind === 'key' ? 'its' : 'your'} own role`,
    );
  }
}

/** The roles the actor may hand out, least trusted first. */
export function rolesGivenBy(
  actor: Pick<MemberActor, 'role'>,
  all: readonly Role[],
): Role[] {
  return all.filter((role) => roleAtMost(role, actor.role));
}

/** The event of `actor` changing the membership of `userId`. */
export function auditOf(
  actor: MemberActor,
  action: AuditAction,
  userId: string | null,
): AuditRecord {
  return {
    accountId: actor.accountId,
    actor: actor.by ?? SYSTEM_ACTOR,
    action,
    target: { type: 'member', id: userId },
  };
}
