// The end of every sign-in: a password sign-in of a user with a second factor becomes a
// half-signed-in session that reaches only the second step; a complete sign-in starts the
// session. Each outcome is one method, so whatever else must hear of it is one line.
import { Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AccountsService } from '../../accounts/accounts.service.js';
import { SecondFactorsService } from '../../second-factors/second-factors.service.js';
import { cookieOf, safeNextPath } from '../dashboard-context.js';
import type { SignInMethod } from './dashboard-session.entity.js';
import {
  DashboardSessionsService,
  sessionClientOf,
} from './dashboard-sessions.service.js';
import { SECOND_STEP_PATH } from './second-step-paths.js';
import { SESSION_COOKIE, setSessionCookie } from './session-cookie.js';
import { SignInAuditRecorder } from './sign-in-audit-recorder.js';
import { SignInLimiter } from './sign-in-limiter.js';

/** The second step's address, carrying where to go after it. */
export function secondStepUrl(next: string | undefined): string {
  return next === undefined
    ? SECOND_STEP_PATH
    : `${SECOND_STEP_PATH}?next=${encodeURIComponent(safeNextPath(next))}`;
}

@Injectable()
export class SignInFlowService {
  constructor(
    private readonly sessions: DashboardSessionsService,
    private readonly accounts: AccountsService,
    private readonly factors: SecondFactorsService,
    private readonly limits: SignInLimiter,
    private readonly audit: SignInAuditRecorder,
  ) {}

  /**
   * The password was right: a user with a second factor is half signed in and sent to the
   * second step; anyone else is signed in. Answers where to send the browser.
   */
  async afterPassword(
    request: FastifyRequest,
    reply: FastifyReply,
    user: { id: string; email: string },
    accountId: string,
    next: string | undefined,
  ): Promise<string> {
    if (await this.factors.hasFactor(user.id)) {
      const { token } = await this.sessions.start(
        user.id,
        accountId,
        'password',
        sessionClientOf(request),
        { secondFactorPending: true },
      );
      setSessionCookie(request, reply, token);
      return secondStepUrl(next);
    }
    await this.succeeded(request, reply, user, accountId, 'password');
    return safeNextPath(next);
  }

  /** Sign-in succeeded: the session starts (replacing a half-signed-in one). */
  async succeeded(
    request: FastifyRequest,
    reply: FastifyReply,
    user: { id: string; email: string },
    accountId: string,
    method: SignInMethod,
  ): Promise<void> {
    await this.sessions.end(cookieOf(request, SESSION_COOKIE));
    await this.limits.loginSucceeded(request.ip, user.email);
    await this.accounts.recordSignIn(user.id);
    await this.audit.succeeded(user, request, method);
    const { token } = await this.sessions.start(
      user.id,
      accountId,
      method,
      sessionClientOf(request),
    );
    setSessionCookie(request, reply, token);
  }

  /**
   * Sign-in failed (a wrong password, second-factor code, recovery code or passkey): it
   * counts in the same per-client and per-address limits.
   */
  async failed(
    request: FastifyRequest,
    email: string,
    reason = 'wrong password',
  ): Promise<void> {
    await this.limits.loginFailed(request.ip, email);
    await this.audit.failed(email, request, reason);
  }
}
