// Invitations to join an account (docs/teams.md): made by owners and admins (and admin
// keys), mailed within the confirmation-mail caps, listed while pending, resent and
// revoked. Opening and accepting a link is InvitationLinksService's.
import {
  ConflictException,
  Injectable,
  Logger,
  NotFoundException,
  type BeforeApplicationShutdown,
} from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { normalizeEmail } from '../accounts/accounts.service.js';
import type { Invitation } from '../accounts/invitation.entity.js';
import { isRole, ROLES, type Role } from '../auth/permissions.js';
import { isEmailAddress } from '../common/values/email-address.js';
import {
  TooManyRequestsException,
  ValidationFailedException,
} from '../common/errors/errors.js';
import { newUlid } from '../common/values/ulid.js';
import { AuditLogService } from '../audit/audit-log.service.js';
import { AppConfig } from '../config/app-config.js';
import { hashToken } from '../notifications/email/email-recipients.service.js';
import { composeInvitationMail } from '../notifications/email/invitation-mail.js';
import {
  MailQuotaLimiter,
  accountRule,
  addressRule,
} from '../notifications/email/mail-quota-limiter.js';
import { Mailer } from '../notifications/email/mailer.js';
import { AccountRepository } from '../accounts/account.repository.js';
import { InvitationRepository } from './invitation.repository.js';
import {
  auditOf,
  checkMayGive,
  checkMayManageInvitation,
  type MemberActor,
} from './member-actor.js';
import { MembershipRepository } from '../accounts/membership.repository.js';
import { UserRepository } from '../accounts/user.repository.js';

export const INVITATION_VALID_DAYS = 7;
const DAY_MS = 24 * 60 * 60 * 1000;

export const INVITATION_NOT_FOUND = 'Invitation not found';
export const MAIL_OFF_FOR_INVITATIONS =
  'Email is off on this server (SMTP_URL and MAIL_FROM are not set): invitations cannot be sent';

export function tooManyMembersMessage(max: number): string {
  return `This account already has ${max} members and pending invitations, the most it may have (MAX_MEMBERS_PER_ACCOUNT): remove a member or revoke an invitation first`;
}

/** What the API and the Members page show of a pending invitation. */
export interface InvitationView {
  id: string;
  email: string;
  role: Role;
  expiresAt: Date;
  createdAt: Date;
  invitedBy: string;
}

export interface InvitationInput {
  email: unknown;
  role: unknown;
}

/** Seconds until the next UTC day, when the daily mail caps start again. */
export function secondsToNextDay(now = new Date()): number {
  const next = Date.UTC(
    now.getUTCFullYear(),
    now.getUTCMonth(),
    now.getUTCDate() + 1,
  );
  return Math.max(1, Math.ceil((next - now.getTime()) / 1000));
}

@Injectable()
export class InvitationsService implements BeforeApplicationShutdown {
  private readonly logger = new Logger('Invitations');
  private readonly sending = new Set<Promise<void>>();

  constructor(
    private readonly invitations: InvitationRepository,
    private readonly memberships: MembershipRepository,
    private readonly users: UserRepository,
    private readonly accounts: AccountRepository,
    private readonly mailer: Mailer,
    private readonly quotas: MailQuotaLimiter,
    private readonly config: AppConfig,
    private readonly auditLog: AuditLogService,
  ) {}

  /** true when invitations can be mailed at all. */
  get mailEnabled(): boolean {
    return this.mailer.enabled;
  }

  /** The account's pending invitations, newest first. */
  async listPending(
    accountId: string,
    now = new Date(),
  ): Promise<InvitationView[]> {
    const rows = await this.invitations.listPending(accountId, now);
    return rows.map((row) => this.view(row));
  }

  /**
   * Invites `input.email` with `input.role`: 400 on a bad address or role, 403 beyond the
   * actor's own role, 409 when the address is a member or invited already, when the
   * account is full or mail is off, 429 when a mail cap refuses (nothing is sent then).
   */
  async invite(
    actor: MemberActor,
    input: InvitationInput,
    now = new Date(),
  ): Promise<InvitationView> {
    const { email, role } = checkedInput(input);
    checkMayGive(actor, role);
    const { accountId } = actor;
    if (await this.isMember(accountId, email)) {
      throw new ConflictException(
        'This address is already a member of the account',
      );
    }
    if (await this.invitations.hasPending(accountId, email, now)) {
      throw new ConflictException(
        'This address already has a pending invitation: resend it or revoke it first',
      );
    }
    // Counted before the insert: invitations racing each other may pass it together.
    const max = this.config.maxMembersPerAccount;
    if ((await this.memberCount(accountId, now)) >= max) {
      throw new ConflictException(tooManyMembersMessage(max));
    }
    const token = await this.reserveMail(accountId, email, now);
    const invitation = this.invitations.create({
      id: newUlid(),
      accountId,
      email,
      role,
      tokenHash: hashToken(token),
      invitedByUserId: actor.userId,
      invitedByLabel: actor.label.slice(0, 254),
      expiresAt: new Date(now.getTime() + INVITATION_VALID_DAYS * DAY_MS),
      createdAt: now,
      acceptedAt: null,
      revokedAt: null,
    });
    try {
      await this.auditLog.recordChange(
        {
          ...auditOf(actor, 'member.invited', null),
          target: { type: 'invitation', id: invitation.id },
          details: { email, role },
        },
        async (manager) => (
          await this.invitations.insert(manager, invitation),
          true
        ),
      );
    } catch (error) {
      // Not stored, so not sent: the mail reserved for it goes back to the caps.
      await this.releaseMail(accountId, email, now);
      throw error;
    }
    this.track(this.send(invitation, token));
    return this.view(invitation);
  }

  /**
   * Mails a pending invitation again with a new link (the old one stops working) valid
   * for another 7 days, within the same caps as the first.
   */
  async resend(
    actor: MemberActor,
    invitationId: string,
    now = new Date(),
  ): Promise<InvitationView> {
    const invitation = await this.findPending(
      actor.accountId,
      invitationId,
      now,
    );
    checkMayManageInvitation(actor, invitation.role);
    const token = await this.reserveMail(
      actor.accountId,
      invitation.email,
      now,
    );
    const expiresAt = new Date(now.getTime() + INVITATION_VALID_DAYS * DAY_MS);
    let renewed = false;
    try {
      renewed = await this.auditLog.recordChange(
        {
          ...auditOf(actor, 'invitation.resent', null),
          target: { type: 'invitation', id: invitation.id },
          details: {
            email: invitation.email,
            role: invitation.role,
            expiresAt: { before: invitation.expiresAt, after: expiresAt },
          },
        },
        (manager) =>
          this.invitations.renew(
            manager,
            invitation.id,
            { tokenHash: hashToken(token), expiresAt },
            now,
          ),
      );
    } finally {
      // Not renewed (revoked or accepted meanwhile, or a failure): no mail, so none counted.
      if (!renewed) {
        await this.releaseMail(actor.accountId, invitation.email, now);
      }
    }
    if (!renewed) throw new NotFoundException(INVITATION_NOT_FOUND);
    invitation.expiresAt = expiresAt;
    this.track(this.send(invitation, token));
    return this.view(invitation);
  }

  /** Revokes a pending invitation: its link answers 410 from then on. */
  async revoke(
    actor: MemberActor,
    invitationId: string,
    now = new Date(),
  ): Promise<void> {
    const invitation = await this.findPending(
      actor.accountId,
      invitationId,
      now,
    );
    checkMayManageInvitation(actor, invitation.role);
    const revoked = await this.auditLog.recordChange(
      {
        ...auditOf(actor, 'invitation.revoked', null),
        target: { type: 'invitation', id: invitation.id },
        details: { email: invitation.email, role: invitation.role },
      },
      (manager) => this.invitations.revoke(manager, invitation.id, now),
    );
    if (!revoked) throw new NotFoundException(INVITATION_NOT_FOUND);
  }

  /** Members plus pending invitations: what MAX_MEMBERS_PER_ACCOUNT caps. */
  async memberCount(accountId: string, now = new Date()): Promise<number> {
    const [members, pending] = await Promise.all([
      this.memberships.countOf(accountId),
      this.invitations.countPending(accountId, now),
    ]);
    return members + pending;
  }

  /** Resolves once every invitation mail started so far has been handed over (or failed). */
  async settled(): Promise<void> {
    while (this.sending.size > 0) await Promise.allSettled(this.sending);
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.settled();
  }

  private async isMember(accountId: string, email: string): Promise<boolean> {
    const userId = await this.users.idByEmail(email);
    return userId !== null ? this.memberships.exists(accountId, userId) : false;
  }

  private async findPending(
    accountId: string,
    invitationId: string,
    now: Date,
  ): Promise<Invitation> {
    const invitation = await this.invitations.findPending(
      accountId,
      invitationId,
      now,
    );
    if (!invitation) throw new NotFoundException(INVITATION_NOT_FOUND);
    return invitation;
  }

  /** A fresh token, once the caps granted its mail: 409 with mail off, 429 when capped. */
  private async reserveMail(
    accountId: string,
    email: string,
    now: Date,
  ): Promise<string> {
    if (!this.mailer.enabled) {
      throw new ConflictException(MAIL_OFF_FOR_INVITATIONS);
    }
    const reserved = await this.quotas.reserve(
      [accountRule(accountId), addressRule(email)],
      now,
    );
    if (!reserved.ok) {
      throw new TooManyRequestsException(
        reserved.refusedBy.subject.startsWith('account:')
          ? 'This account has sent as many invitations and confirmation links as it may today: try again tomorrow'
          : 'This address was sent as many invitations and confirmation links as it may receive for now: try again later',
        secondsToNextDay(now),
      );
    }
    return randomBytes(32).toString('base64url');
  }

  /** Gives back a mail `reserveMail` counted, when it is not sent after all. */
  private async releaseMail(
    accountId: string,
    email: string,
    now: Date,
  ): Promise<void> {
    await this.quotas.release(accountRule(accountId), now);
    await this.quotas.release(addressRule(email), now);
  }

  private async send(invitation: Invitation, token: string): Promise<void> {
    const accountName = await this.accounts.nameOf(invitation.accountId);
    const mail = composeInvitationMail({
      publicUrl: this.config.publicUrl,
      token,
      accountName,
      invitedBy: invitation.invitedByLabel,
      role: invitation.role,
      validDays: INVITATION_VALID_DAYS,
    });
    const result = await this.mailer.send({ to: invitation.email, ...mail });
    if (!result.ok) {
      this.logger.warn(
        `Could not send invitation ${invitation.id} of account ${invitation.accountId}: ${result.error}`,
      );
    }
  }

  private track(work: Promise<void>): void {
    const tracked = work.catch((error: unknown) =>
      this.logger.error(`Invitation mail failed: ${(error as Error).message}`),
    );
    this.sending.add(tracked);
    void tracked.finally(() => this.sending.delete(tracked));
  }

  private view(row: Invitation): InvitationView {
    return {
      id: row.id,
      email: row.email,
      role: row.role,
      expiresAt: row.expiresAt,
      createdAt: row.createdAt,
      invitedBy: row.invitedByLabel,
    };
  }
}

/** The posted address (lower-cased) and role, or 400 with one message per problem. */
function checkedInput(input: InvitationInput): { email: string; role: Role } {
  const problems: string[] = [];
  const email =
    typeof input.email === 'string' ? normalizeEmail(input.email) : '';
  if (!isEmailAddress(email)) {
    problems.push('email must be a valid email address');
  }
  if (!isRole(input.role)) {
    problems.push(
      `role must be one of the following values: ${ROLES.join(', ')}`,
    );
  }
  if (problems.length > 0) throw new ValidationFailedException(problems);
  return { email, role: input.role as Role };
}
