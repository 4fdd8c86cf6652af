import { Injectable } from '@nestjs/common';
import {
  createHash,
  createHmac,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';
import { AppConfig } from '../../config/app-config.js';
import type {
  DashboardSession,
  SignInMethod,
} from './dashboard-session.entity.js';
import { DashboardSessionRepository } from './dashboard-session.repository.js';

/** How long a dashboard sign-in lasts. */
export const SESSION_TTL_MS = 14 * 24 * 60 * 60 * 1000;

export interface StartedSession {
  /** The cookie value: 256 random bits, never stored. */
  token: string;
  session: DashboardSession;
}

/** Who is signing in from where: the browser and address shown on the sessions page. */
export interface SessionClient {
  userAgent?: string | null;
  ip?: string | null;
}

/** The browser and address of a request, for `start`. */
export function sessionClientOf(request: {
  ip: string;
  headers: Record<string, string | string[] | undefined>;
}): SessionClient {
  const agent = request.headers['user-agent'];
  return {
    userAgent: typeof agent === 'string' ? agent : null,
    ip: request.ip,
  };
}

export interface StartOptions {
  /** The password was right but a second factor is still owed (a short-lived session). */
  secondFactorPending?: boolean;
}

/** How long a half-signed-in session waits for its second step. */
export const PENDING_SESSION_TTL_MS = 10 * 60 * 1000;
/** Last activity is written at most this often per session. */
const TOUCH_EVERY_MS = 60 * 1000;

function sha256(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

function sameString(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * Server-side dashboard sessions. The cookie carries a random token and only its SHA-256
 * is stored, so a database leak does not yield usable cookies, and deleting the row
 * (logout, password change) revokes every copy of the cookie at once.
 */
@Injectable()
export class DashboardSessionsService {
  private readonly anonymousCsrfKey: Buffer;

  constructor(
    private readonly sessions: DashboardSessionRepository,
    config: AppConfig,
  ) {
    this.anonymousCsrfKey = createHmac('sha256', config.appSecret)
      .update('formgate:dashboard-anonymous-csrf')
      .digest();
  }

  /**
   * A new session of `userId`, working in `accountId` (one they are a member of), that
   * signed in by `method` from `client`.
   */
  async start(
    userId: string,
    accountId: string,
    method: SignInMethod,
    client: SessionClient = {},
    options: StartOptions = {},
  ): Promise<StartedSession> {
    const token = randomBytes(32).toString('base64url');
    const now = new Date();
    const pending = options.secondFactorPending ?? false;
    const session = this.sessions.create({
      tokenHash: sha256(token),
      userId,
      accountId,
      method,
      secondFactorPending: pending,
      userAgent: client.userAgent?.slice(0, 255) ?? null,
      ipAddress: client.ip?.slice(0, 45) ?? null,
      lastSeenAt: now,
      csrfSecret: randomBytes(32).toString('base64url'),
      createdAt: now,
      expiresAt: new Date(
        now.getTime() + (pending ? PENDING_SESSION_TTL_MS : SESSION_TTL_MS),
      ),
    });
    await this.sessions.insert(session);
    // Housekeeping: this user's expired sessions go when they sign in again.
    await this.sessions.deleteExpired(userId, now);
    return { token, session };
  }

  /** The live session a cookie token belongs to, or null. */
  async find(token: string | undefined): Promise<DashboardSession | null> {
    if (!token || token.length > 100) return null;
    return this.sessions.findLive(sha256(token), new Date());
  }

  async end(token: string | undefined): Promise<void> {
    if (!token || token.length > 100) return;
    await this.sessions.delete(sha256(token));
  }

  /** The user's live, complete sessions, latest activity first (the sessions page). */
  listOf(userId: string): Promise<DashboardSession[]> {
    return this.sessions.listLive(userId, new Date());
  }

  /**
   * Ends the user's session whose id (the first 16 characters of its token's hash, as the
   * sessions page names it) is `id`; false when they have none such.
   */
  async endById(userId: string, id: string): Promise<boolean> {
    if (!/^[0-9a-f]{16}$/.test(id)) return false;
    return this.sessions.deleteByPrefix(userId, id);
  }

  /** Notes the session's latest request (at most once a minute, or when its address changes). */
  async touch(
    session: DashboardSession,
    ip: string | undefined,
  ): Promise<void> {
    const now = Date.now();
    const address = ip?.slice(0, 45) ?? null;
    if (
      session.lastSeenAt &&
      now - session.lastSeenAt.getTime() < TOUCH_EVERY_MS &&
      session.ipAddress === address
    ) {
      return;
    }
    await this.sessions.recordActivity(
      session.tokenHash,
      new Date(now),
      address,
    );
  }

  /** Ends every session of the user except the one given (after a password change). */
  async endOthers(userId: string, keepTokenHash: string): Promise<void> {
    await this.sessions.deleteOthers(userId, keepTokenHash);
  }

  async endAll(userId: string): Promise<void> {
    await this.sessions.deleteAll(userId);
  }

  /** The session works in `accountId` from its next request on (the account switcher). */
  async switchAccount(tokenHash: string, accountId: string): Promise<void> {
    await this.sessions.switchAccount(tokenHash, accountId);
  }

  /** The synchronizer token for this session's forms (HMAC of its secret). */
  csrfToken(session: DashboardSession): string {
    return createHmac('sha256', session.csrfSecret)
      .update('formgate:dashboard-csrf')
      .digest('base64url');
  }

  checkCsrf(session: DashboardSession, token: unknown): boolean {
    return (
      typeof token === 'string' && sameString(token, this.csrfToken(session))
    );
  }

  /**
   * Signed-out forms (log in, sign up) are protected by a double-submit token: a random
   * value in a cookie, and its HMAC under APP_SECRET in the form.
   */
  anonymousCsrfToken(cookieValue: string): string {
    return createHmac('sha256', this.anonymousCsrfKey)
      .update(cookieValue)
      .digest('base64url');
  }

  checkAnonymousCsrf(cookieValue: string | undefined, token: unknown): boolean {
    if (!cookieValue || cookieValue.length > 100) return false;
    return (
      typeof token === 'string' &&
      sameString(token, this.anonymousCsrfToken(cookieValue))
    );
  }

  /** The id the sessions page names a session by. */
  static publicId(session: { tokenHash: string }): string {
    return session.tokenHash.slice(0, 16);
  }

  static hashToken(token: string): string {
    return sha256(token);
  }
}
