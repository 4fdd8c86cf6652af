// A user's own address is verified by a link mailed at sign-up: until they open it and
// select Verify, the service mails that address nothing else (no owner alert).
// Each link is reserved from the same caps as a recipient's confirmation link (MailQuotaLimiter:
// per account, and per address across every account), and asking again is allowed once a
// minute, so signing up or resending cannot be used to flood a stranger.
import {
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
} from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import {
  UserRepository,
  type VerifyingUser,
} from '../../accounts/user.repository.js';
import { isEmailAddress } from '../../common/values/email-address.js';
import { AppConfig } from '../../config/app-config.js';
import {
  CONFIRMATION_VALID_DAYS,
  hashToken,
} from './email-recipients.service.js';
import {
  MailQuotaLimiter,
  accountRule,
  addressRule,
} from './mail-quota-limiter.js';
import { Mailer } from './mailer.js';
import { composeVerificationMail } from './verification-mail.js';

export const VERIFICATION_VALID_DAYS = CONFIRMATION_VALID_DAYS;
/** Seconds between two verification links of one account. */
export const RESEND_INTERVAL_SECONDS = 60;
const DAY_MS = 24 * 60 * 60 * 1000;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** What asking for a link did. */
export type LinkRequest =
  | { outcome: 'sent' }
  | { outcome: 'verified' }
  | { outcome: 'mail-off' }
  | { outcome: 'unmailable' }
  /** Asked again too soon: wait this many seconds. */
  | { outcome: 'wait'; seconds: number }
  /** The address (or account) had as many links as it may receive for now. */
  | { outcome: 'capped' };

export type VerificationState = 'unknown' | 'expired' | 'pending' | 'verified';

@Injectable()
export class AccountVerificationService implements BeforeApplicationShutdown {
  private readonly logger = new Logger('AccountVerification');
  private readonly sending = new Set<Promise<void>>();

  constructor(
    private readonly users: UserRepository,
    private readonly mailer: Mailer,
    private readonly quotas: MailQuotaLimiter,
    private readonly config: AppConfig,
  ) {}

  /** true when the user's own address may be mailed. */
  async isVerified(userId: string): Promise<boolean> {
    return Boolean(await this.users.emailVerifiedAt(userId));
  }

  /**
   * Mails the user a fresh verification link (in the background; see settled()),
   * unless they are verified, were sent one less than a minute ago, or a cap refuses.
   * The link counts against the mail caps of `accountId`, the account they work in.
   */
  async requestLink(
    userId: string,
    accountId: string,
    now = new Date(),
  ): Promise<LinkRequest> {
    const account = await this.users.verifyMailState(userId);
    if (!account || account.emailVerifiedAt) return { outcome: 'verified' };
    if (!this.mailer.enabled) return { outcome: 'mail-off' };
    if (!isEmailAddress(account.email)) return { outcome: 'unmailable' };
    // One request a minute per user, taken atomically: two clicks cannot both pass.
    const since = new Date(now.getTime() - RESEND_INTERVAL_SECONDS * 1000);
    if (!(await this.users.claimVerifyMail(userId, since, now))) {
      const last = account.verifySentAt?.getTime() ?? now.getTime();
      const seconds = Math.ceil(
        (last + RESEND_INTERVAL_SECONDS * 1000 - now.getTime()) / 1000,
      );
      return { outcome: 'wait', seconds: Math.max(1, seconds) };
    }
    const reserved = await this.quotas.reserve(
      [accountRule(accountId), addressRule(account.email)],
      now,
    );
    if (!reserved.ok) {
      this.logger.warn(
        `No verification link for user ${userId}: their address was sent as many links as it may receive for now`,
      );
      return { outcome: 'capped' };
    }
    // Only now is the previous link replaced: a refused request leaves it working.
    const token = randomBytes(32).toString('base64url');
    await this.users.setVerifyToken(
      userId,
      hashToken(token),
      new Date(now.getTime() + VERIFICATION_VALID_DAYS * DAY_MS),
    );
    this.track(this.send(userId, account.email, token));
    return { outcome: 'sent' };
  }

  /** What a verification link stands for, without changing anything. */
  async stateOf(token: string, now = new Date()): Promise<VerificationState> {
    const account = await this.findByToken(token);
    if (!account) return 'unknown';
    if (account.emailVerifiedAt) return 'verified';
    return account.verifyTokenExpiresAt && account.verifyTokenExpiresAt > now
      ? 'pending'
      : 'expired';
  }

  /** Verifies the user of a valid link. */
  async verify(token: string, now = new Date()): Promise<VerificationState> {
    const state = await this.stateOf(token, now);
    if (state !== 'pending') return state;
    const hash = hashToken(token);
    const account = (await this.findByToken(token))!;
    if (await this.users.markVerified(account.id, hash, now)) {
      await this.quotas.answered(account.email);
    }
    return 'verified';
  }

  /** Resolves once every verification mail started so far has been handed over (or failed). */
  async settled(): Promise<void> {
    while (this.sending.size > 0) await Promise.allSettled(this.sending);
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.settled();
  }

  private findByToken(token: string): Promise<VerifyingUser | null> {
    if (!TOKEN_PATTERN.test(token)) return Promise.resolve(null);
    return this.users.findByVerifyToken(hashToken(token));
  }

  private async send(
    userId: string,
    address: string,
    token: string,
  ): Promise<void> {
    const mail = composeVerificationMail(
      this.config.publicUrl,
      token,
      VERIFICATION_VALID_DAYS,
    );
    const result = await this.mailer.send({ to: address, ...mail });
    if (!result.ok) {
      this.logger.warn(
        `Could not send the verification link of user ${userId}: ${result.error}`,
      );
    }
  }

  private track(work: Promise<void>): void {
    const tracked = work.catch((error: unknown) =>
      this.logger.error(
        `Verification mail failed: ${(error as Error).message}`,
      ),
    );
    this.sending.add(tracked);
    void tracked.finally(() => this.sending.delete(tracked));
  }
}
