// The link an invitation mails: what it stands for, and joining through it, signed in as
// the invited address or by choosing a password (a user without an account of their own).
// Either way the link proves the address, so the user counts as verified from then on.
import {
  ConflictException,
  ForbiddenException,
  GoneException,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Invitation } from '../accounts/invitation.entity.js';
import { MembershipsService } from '../accounts/memberships.service.js';
import { hashPassword, passwordProblems } from '../accounts/password.js';
import { memberActor } from '../audit/audit-actor.js';
import { AuditLogService } from '../audit/audit-log.service.js';
import type { Role } from '../auth/permissions.js';
import { isUniqueViolation } from '../common/database/driver-errors.js';
import { ValidationFailedException } from '../common/errors/errors.js';
import { newUlid } from '../common/values/ulid.js';
import { hashToken } from '../notifications/email/email-recipients.service.js';
import { MailQuotaLimiter } from '../notifications/email/mail-quota-limiter.js';
import { AccountRepository } from '../accounts/account.repository.js';
import { InvitationRepository } from './invitation.repository.js';
import { MembershipRepository } from '../accounts/membership.repository.js';
import { UserRepository } from '../accounts/user.repository.js';

/** 32 random bytes in base64url, as every link token. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export type InvitationState =
  'unknown' | 'pending' | 'accepted' | 'revoked' | 'expired';

/** What the invitation page shows of a link. */
export interface OpenedInvitation {
  state: InvitationState;
  /** Absent for an unknown link. */
  invitation?: {
    id: string;
    accountId: string;
    accountName: string;
    email: string;
    role: Role;
    invitedBy: string;
    /** A user with the invited address exists (they log in rather than sign up). */
    userExists: boolean;
    /**
     * That user is a member of some account, so the sign-in page can let them in; one
     * who belongs to none any more signs in on the invitation page itself.
     */
    userHasAccounts: boolean;
  };
}

export const INVITATION_GONE =
  'This invitation was already used, revoked or has expired';
export const INVITATION_UNKNOWN = 'This invitation link is not valid';

@Injectable()
export class InvitationLinksService {
  constructor(
    private readonly invitations: InvitationRepository,
    private readonly accounts: AccountRepository,
    private readonly users: UserRepository,
    private readonly memberships: MembershipRepository,
    private readonly quotas: MailQuotaLimiter,
    private readonly changes: MembershipsService,
    private readonly auditLog: AuditLogService,
  ) {}

  /** What a link stands for, changing nothing (opening it is what mail scanners do). */
  async open(token: string, now = new Date()): Promise<OpenedInvitation> {
    const row = await this.findByToken(token);
    if (!row) return { state: 'unknown' };
    const [accountName, userId] = await Promise.all([
      this.accounts.nameOf(row.accountId),
      this.users.idByEmail(row.email),
    ]);
    const userHasAccounts =
      userId !== null && (await this.memberships.hasAny(userId));
    return {
      state: stateOf(row, now),
      invitation: {
        id: row.id,
        accountId: row.accountId,
        accountName,
        email: row.email,
        role: row.role,
        invitedBy: row.invitedByLabel,
        userExists: userId !== null,
        userHasAccounts,
      },
    };
  }

  /** The address a pending invitation was sent to: 404 unknown, 410 used, revoked or expired. */
  async pendingEmail(token: string, now = new Date()): Promise<string> {
    return (await this.pendingByToken(token, now)).email;
  }

  /**
   * The signed-in user `userId` (whose address is `email`) joins through the link: 404
   * for an unknown link, 410 for a used, revoked or expired one, 403 when it was sent to
   * another address. Answers the account joined.
   */
  async accept(
    token: string,
    user: { id: string; email: string },
    now = new Date(),
  ): Promise<{ accountId: string; role: Role }> {
    const row = await this.pendingByToken(token, now);
    if (row.email !== user.email.toLowerCase()) {
      throw new ForbiddenException(
        'This invitation was sent to another address: sign in as that address to accept it',
      );
    }
    await this.auditLog.transaction((manager) =>
      this.join(manager, row, { id: user.id, email: user.email }, now),
    );
    this.changes.changed(row.accountId, user.id);
    await this.quotas.answered(row.email);
    return { accountId: row.accountId, role: row.role };
  }

  /**
   * A person without a user joins through the link with a new password: the user is made
   * (verified, in no account but this one) and joins. 400 on a weak password, 409 when the
   * address has a user already (they log in instead).
   */
  async signUp(
    token: string,
    password: string,
    now = new Date(),
  ): Promise<{ userId: string; accountId: string; role: Role }> {
    const row = await this.pendingByToken(token, now);
    const problems = passwordProblems(password);
    if (problems.length > 0) throw new ValidationFailedException(problems);
    const userId = newUlid();
    const passwordHash = await hashPassword(password);
    try {
      await this.auditLog.transaction(async (manager) => {
        await this.users
          .in(manager)
          .insertVerified({ id: userId, email: row.email, passwordHash }, now);
        await this.join(manager, row, { id: userId, email: row.email }, now);
      });
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new ConflictException(
          'This address has a password already: log in to accept the invitation',
        );
      }
      throw error;
    }
    this.changes.changed(row.accountId, userId);
    await this.quotas.answered(row.email);
    return { userId, accountId: row.accountId, role: row.role };
  }

  /** Uses the invitation once and adds the membership, in the caller's transaction. */
  private async join(
    manager: EntityManager,
    row: Invitation,
    user: { id: string; email: string },
    now: Date,
  ): Promise<void> {
    const userId = user.id;
    // Accepted (or revoked) by a request racing this one.
    if (!(await this.invitations.use(manager, row.id, now))) {
      throw new GoneException(INVITATION_GONE);
    }
    // Already a member (joined another way meanwhile): the role they have stays.
    const memberships = this.memberships.in(manager);
    if (!(await memberships.exists(row.accountId, userId))) {
      await memberships.insert({
        accountId: row.accountId,
        userId,
        role: row.role,
        createdAt: now,
        updatedAt: now,
      });
      await this.auditLog.record(manager, {
        accountId: row.accountId,
        actor: memberActor(userId, user.email),
        action: 'member.joined',
        target: { type: 'member', id: userId },
        details: { email: user.email, role: row.role, invitationId: row.id },
      });
    }
    await this.users.in(manager).markAddressProven(userId, now);
  }

  private async pendingByToken(token: string, now: Date): Promise<Invitation> {
    const row = await this.findByToken(token);
    if (!row) throw new NotFoundException(INVITATION_UNKNOWN);
    if (stateOf(row, now) !== 'pending') {
      throw new GoneException(INVITATION_GONE);
    }
    return row;
  }

  private findByToken(token: string): Promise<Invitation | null> {
    if (!TOKEN_PATTERN.test(token)) return Promise.resolve(null);
    return this.invitations.findByTokenHash(hashToken(token));
  }
}

function stateOf(row: Invitation, now: Date): InvitationState {
  if (row.acceptedAt) return 'accepted';
  if (row.revokedAt) return 'revoked';
  return row.expiresAt > now ? 'pending' : 'expired';
}
