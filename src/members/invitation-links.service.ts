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
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, IsNull, Repository, type EntityManager } from 'typeorm';
import { Account } from '../accounts/account.entity.js';
import { Invitation } from '../accounts/invitation.entity.js';
import { Membership } from '../accounts/membership.entity.js';
import { MembershipsService } from '../accounts/memberships.service.js';
import { hashPassword, passwordProblems } from '../accounts/password.js';
import { User } from '../accounts/user.entity.js';
import { memberActor } from '../audit/audit-actor.js';
import { AuditLog } from '../audit/audit-log.service.js';
import type { Role } from '../auth/permissions.js';
import { isUniqueViolation } from '../common/database/driver-errors.js';
import { ValidationFailedException } from '../common/errors/errors.js';
import { newUlid } from '../common/values/ulid.js';
import { hashToken } from '../notifications/email/email-recipients.service.js';
import { MailQuotas } from '../notifications/email/mail-quotas.js';
import { pendingWhere } from './invitations.service.js';

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
    @InjectRepository(Invitation)
    private readonly invitations: Repository<Invitation>,
    @InjectRepository(Account) private readonly accounts: Repository<Account>,
    @InjectRepository(User) private readonly users: Repository<User>,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly quotas: MailQuotas,
    private readonly memberships: MembershipsService,
    private readonly auditLog: AuditLog,
  ) {}

  /** What a link stands for, changing nothing (opening it is what mail scanners do). */
  async open(token: string, now = new Date()): Promise<OpenedInvitation> {
    const row = await this.findByToken(token);
    if (!row) return { state: 'unknown' };
    const [account, user] = await Promise.all([
      this.accounts.findOne({
        where: { id: row.accountId },
        select: { id: true, name: true },
      }),
      this.users.findOne({ where: { email: row.email }, select: { id: true } }),
    ]);
    const userHasAccounts =
      user !== null &&
      (await this.dataSource
        .getRepository(Membership)
        .existsBy({ userId: user.id }));
    return {
      state: stateOf(row, now),
      invitation: {
        id: row.id,
        accountId: row.accountId,
        accountName: account?.name ?? '',
        email: row.email,
        role: row.role,
        invitedBy: row.invitedByLabel,
        userExists: user !== null,
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
    this.memberships.changed(row.accountId, user.id);
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
        await manager.insert(User, {
          id: userId,
          email: row.email,
          passwordHash,
          emailVerifiedAt: now,
          lastSignInAt: now,
          createdAt: now,
          updatedAt: now,
        });
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
    this.memberships.changed(row.accountId, userId);
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
    const used = await manager.update(
      Invitation,
      { id: row.id, ...pendingWhere(now) },
      { acceptedAt: now },
    );
    // Accepted (or revoked) by a request racing this one.
    if (!used.affected) throw new GoneException(INVITATION_GONE);
    const member = await manager.findOneBy(Membership, {
      accountId: row.accountId,
      userId,
    });
    // Already a member (joined another way meanwhile): the role they have stays.
    if (!member) {
      await manager.insert(Membership, {
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
    await manager.update(
      User,
      { id: userId, emailVerifiedAt: IsNull() },
      { emailVerifiedAt: now },
    );
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
    return this.invitations.findOneBy({ tokenHash: hashToken(token) });
  }
}

function stateOf(row: Invitation, now: Date): InvitationState {
  if (row.acceptedAt) return 'accepted';
  if (row.revokedAt) return 'revoked';
  return row.expiresAt > now ? 'pending' : 'expired';
}
