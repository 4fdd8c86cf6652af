// Limits on the dashboard's log-in and sign-up forms, counted like the submit route's:
// per client (an IPv4 address, an IPv6 /64, `::ffff:` folded), in the shared rate-limit
// storage (Redis when REDIS_URL is set, so every instance sees the same counts).
//
// Every limit is keyed by the client. Failures for one email from one client make that
// client wait longer and longer before its next try for that email; failures from
// anyone else change nothing for the owner. A per-email lock would let any stranger
// lock an owner out of the dashboard with a few wrong passwords.
import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { normalizeEmail } from '../../accounts/accounts.service.js';
import { rateLimitBucket } from '../../rate-limit/client-ip.js';
import {
  RATE_LIMIT_STORAGE,
  type RateLimitStorage,
} from '../../rate-limit/rate-limit.storage.js';

export const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;
/** Failed log-ins one client may make per window, whatever the emails. */
export const CLIENT_FAILURES = 10;
/** Sign-up attempts (successful or not) one client may make per window. */
export const CLIENT_SIGN_UPS = 10;
/** Failed log-ins for one email from one client before each further try must wait. */
export const FREE_FAILURES_PER_EMAIL = 3;
/** How long a client's failures for one email are remembered. */
export const EMAIL_FAILURES_WINDOW_MS = 60 * 60 * 1000;
/** The longest wait between two tries for one email. */
export const MAX_EMAIL_DELAY_MS = SIGN_IN_WINDOW_MS;

/**
 * The wait after a client's n-th failed log-in for one email: none for the first few,
 * then 4 s, 8 s, 16 s … doubling up to 15 minutes.
 */
export function emailDelayMs(failures: number): number {
  const beyond = failures - FREE_FAILURES_PER_EMAIL;
  if (beyond <= 0) return 0;
  return Math.min(2 ** Math.min(beyond + 1, 30) * 1000, MAX_EMAIL_DELAY_MS);
}

/** "Too many attempts. Please wait 4 seconds …" / "… 15 minutes …". */
export function waitMessage(seconds: number): string {
  const [count, unit] =
    seconds < 60 ? [seconds, 'second'] : [Math.ceil(seconds / 60), 'minute'];
  return `Too many attempts. Please wait ${count} ${unit}${count === 1 ? '' : 's'} and try again.`;
}

/** Emails are kept out of the storage (and Redis) in clear, and keys stay short. */
function emailKey(email: string): string {
  return createHash('sha256')
    .update(normalizeEmail(email))
    .digest('base64url')
    .slice(0, 22);
}

@Injectable()
export class SignInLimiter {
  constructor(
    @Inject(RATE_LIMIT_STORAGE) private readonly storage: RateLimitStorage,
  ) {}

  /** Seconds this client must wait before trying to log in as `email`; 0 to go ahead. */
  async loginWait(ip: string | undefined, email: string): Promise<number> {
    const keys = this.loginKeys(ip, email);
    const [client, wait] = await Promise.all([
      this.storage.peek(keys.client, SIGN_IN_WINDOW_MS),
      this.storage.peek(keys.wait, MAX_EMAIL_DELAY_MS),
    ]);
    let seconds = 0;
    if (client.totalHits >= CLIENT_FAILURES) seconds = client.timeToExpire;
    if (wait.totalHits > 0) seconds = Math.max(seconds, wait.timeToExpire);
    return seconds;
  }

  async loginFailed(ip: string | undefined, email: string): Promise<void> {
    const keys = this.loginKeys(ip, email);
    const [, perEmail] = await Promise.all([
      this.storage.increment(
        keys.client,
        SIGN_IN_WINDOW_MS,
        CLIENT_FAILURES,
        SIGN_IN_WINDOW_MS,
        'login',
      ),
      this.storage.increment(
        keys.failures,
        EMAIL_FAILURES_WINDOW_MS,
        Number.MAX_SAFE_INTEGER,
        EMAIL_FAILURES_WINDOW_MS,
        'login',
      ),
    ]);
    const delay = emailDelayMs(perEmail.totalHits);
    if (delay > 0) {
      // A window that lasts exactly the delay: while it exists, this client waits.
      await this.storage.reset(keys.wait);
      await this.storage.increment(keys.wait, delay, 0, delay, 'login');
    }
  }

  /** A successful log-in clears this client's failures for the email (not its total). */
  async loginSucceeded(ip: string | undefined, email: string): Promise<void> {
    const keys = this.loginKeys(ip, email);
    await Promise.all([
      this.storage.reset(keys.failures),
      this.storage.reset(keys.wait),
    ]);
  }

  /** Seconds this client must wait before its next sign-up attempt; 0 to go ahead. */
  async signUpWait(ip: string | undefined): Promise<number> {
    const client = await this.storage.peek(
      this.signUpKey(ip),
      SIGN_IN_WINDOW_MS,
    );
    return client.totalHits >= CLIENT_SIGN_UPS ? client.timeToExpire : 0;
  }

  /** Every sign-up attempt counts, successful or not: this bounds account creation too. */
  async signUpAttempted(ip: string | undefined): Promise<void> {
    await this.storage.increment(
      this.signUpKey(ip),
      SIGN_IN_WINDOW_MS,
      CLIENT_SIGN_UPS,
      SIGN_IN_WINDOW_MS,
      'signup',
    );
  }

  /**
   * Seconds a signed-in user must wait before the change-password form checks the
   * current password again. Keyed by user: only a session of that user gets here.
   */
  async passwordCheckWait(userId: string): Promise<number> {
    const account = await this.storage.peek(
      `password-check:${userId}`,
      SIGN_IN_WINDOW_MS,
    );
    return account.totalHits >= CLIENT_FAILURES ? account.timeToExpire : 0;
  }

  async passwordCheckFailed(userId: string): Promise<void> {
    await this.storage.increment(
      `password-check:${userId}`,
      SIGN_IN_WINDOW_MS,
      CLIENT_FAILURES,
      SIGN_IN_WINDOW_MS,
      'password-check',
    );
  }

  private loginKeys(ip: string | undefined, email: string) {
    const client = rateLimitBucket(ip);
    const pair = `${client}:${emailKey(email)}`;
    return {
      client: `login:${client}`,
      failures: `login-failures:${pair}`,
      wait: `login-wait:${pair}`,
    };
  }

  private signUpKey(ip: string | undefined): string {
    return `signup:${rateLimitBucket(ip)}`;
  }
}
