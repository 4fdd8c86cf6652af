import {
  CanActivate,
  ExecutionContext,
  ForbiddenException,
  Injectable,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomBytes } from 'node:crypto';
import { AccountsService } from '../../accounts/accounts.service.js';
import { MembershipsService } from '../../accounts/memberships.service.js';
import {
  PERMISSION_ACTIONS,
  roleHas,
  type Permission,
  type Role,
} from '../../auth/permissions.js';
import { routeAccessOf } from '../../auth/route-access.decorator.js';
import { AppConfig } from '../../config/app-config.js';
import { SsoSignInService } from '../../sso/sso-sign-in.service.js';
import {
  addTemplateLocals,
  cookieOf,
  cookieOptions,
  setCookie,
  setDashboardContext,
  SIGNED_OUT_CSRF_COOKIE,
} from '../dashboard-context.js';
import { SESSION_COOKIE } from './session-cookie.js';
import {
  CsrfRejectedException,
  DashboardRedirectException,
  LoginRequiredException,
} from '../dashboard-exceptions.js';
import { DashboardSessionsService } from './dashboard-sessions.service.js';
import { SecondFactorsService } from '../../second-factors/second-factors.service.js';
import { SecurityPolicyService } from '../../second-factors/security-policy.service.js';
import {
  DURING_FACTOR_SETUP,
  FACTOR_SETUP_PATH,
  SECOND_STEP_PATH,
} from './second-step-paths.js';

/** The name of the hidden input carrying the CSRF token in every dashboard form. */
export const CSRF_FIELD = '_csrf';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The 403 page's sentence when a member's role lacks what a page needs. */
export function memberCannot(role: Role, permission: Permission): string {
  return `Your role in this account (${role}) does not let you ${PERMISSION_ACTIONS[permission]}. Ask an owner or admin of the account if you need to.`;
}

/** The 403 page's sentence for a session that did not sign in through the SSO an account requires. */
export const SSO_REQUIRED =
  'This account requires single sign-on for your address: log out, then use “Sign in with SSO” on the log-in page. (You can still switch to another of your accounts.)';

export const PAGE_WITHOUT_PERMISSION =
  'This page declares no permission, so no one may open it.';

function csrfFieldOf(request: FastifyRequest): unknown {
  const body = request.body;
  if (body === null || typeof body !== 'object') return undefined;
  return Object.hasOwn(body, CSRF_FIELD)
    ? (body as Record<string, unknown>)[CSRF_FIELD]
    : undefined;
}

/**
 * Signed-in pages: resolves the session cookie to its user and the user's membership of
 * the account the session works in (else sends the visitor to log in), checks on every
 * state-changing request the synchronizer CSRF token, and refuses (403 page) a member
 * whose role lacks the permission the route declares. The membership is read on every
 * request (cached briefly, and dropped on every instance when it changes), so a removed
 * member or a lowered role bites on the next request.
 */
@Injectable()
export class SignedInGuard implements CanActivate {
  constructor(
    private readonly sessions: DashboardSessionsService,
    private readonly accounts: AccountsService,
    private readonly memberships: MembershipsService,
    private readonly config: AppConfig,
    private readonly reflector: Reflector,
    private readonly policy: SecurityPolicyService,
    private readonly factors: SecondFactorsService,
    private readonly sso: SsoSignInService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const token = cookieOf(request, SESSION_COOKIE);
    const loginRequired = () =>
      new LoginRequiredException(
        request.method === 'GET' ? request.url : undefined,
      );
    const session = await this.sessions.find(token);
    const user = session
      ? await this.accounts.findUserById(session.userId)
      : null;
    if (!session || !user) throw loginRequired();
    // Half signed in: the second step is all such a session reaches.
    if (session.secondFactorPending) {
      throw new DashboardRedirectException(SECOND_STEP_PATH);
    }
    const accounts = await this.memberships.accountsOf(user.id);
    let current = accounts.find((m) => m.accountId === session.accountId);
    if (!current) {
      // No longer a member of the account the session worked in: another of theirs, or
      // nothing at all (the session ends, so the sign-in page does not send them back).
      current = accounts[0];
      if (!current) {
        await this.sessions.end(token);
        throw loginRequired();
      }
      await this.sessions.switchAccount(session.tokenHash, current.accountId);
    }
    if (!SAFE_METHODS.has(request.method)) {
      if (!this.sessions.checkCsrf(session, csrfFieldOf(request))) {
        throw new CsrfRejectedException();
      }
    }
    await this.sessions.touch(session, request.ip);
    if (
      await this.mustSetUpFactor(
        context,
        session.method,
        current.accountId,
        user.id,
      )
    ) {
      throw new DashboardRedirectException(FACTOR_SETUP_PATH);
    }
    const csrfToken = this.sessions.csrfToken(session);
    const dashboardUser = {
      id: user.id,
      email: user.email,
      unverified: this.config.mail !== null && !user.emailVerifiedAt,
    };
    const account = {
      id: current.accountId,
      name: current.accountName,
      role: current.role,
    };
    setDashboardContext(request, {
      user: dashboardUser,
      session: { tokenHash: session.tokenHash, method: session.method },
      account,
      accounts,
      csrfToken,
      client: {
        ip: request.ip ?? null,
        userAgent: request.headers['user-agent'] ?? null,
      },
    });
    // Signed-in pages show keys and submissions: never store them in a cache.
    void reply.header('cache-control', 'no-store');
    addTemplateLocals(reply, {
      user: dashboardUser,
      account,
      accounts,
      csrfToken,
    });
    const access = routeAccessOf(this.reflector, context);
    if (access === undefined || access.kind === 'public') {
      // Fails closed: a signed-in page must say what it needs (test/e2e/api/route-access.e2e-spec.ts).
      throw new ForbiddenException(PAGE_WITHOUT_PERMISSION);
    }
    if (
      access.kind === 'permission' &&
      !roleHas(current.role, access.permission)
    ) {
      throw new ForbiddenException(
        memberCannot(current.role, access.permission),
      );
    }
    // The account's pages, not one's own (log out, switch account): those stay open.
    if (
      access.kind === 'permission' &&
      (await this.sso.sessionRefused(session.method, current, user.email))
    ) {
      throw new ForbiddenException(SSO_REQUIRED);
    }
    return true;
  }

  /**
   * The account requires a second factor and the member has none: until they set one up
   * they reach nothing of it. An SSO sign-in satisfies the policy (the identity provider
   * enforces its own factors).
   */
  private async mustSetUpFactor(
    context: ExecutionContext,
    method: string,
    accountId: string,
    userId: string,
  ): Promise<boolean> {
    if (method === 'sso') return false;
    const allowed = this.reflector.getAllAndOverride<boolean | undefined>(
      DURING_FACTOR_SETUP,
      [context.getHandler(), context.getClass()],
    );
    if (allowed) return false;
    if (!(await this.policy.requiresSecondFactor(accountId))) return false;
    return !(await this.factors.hasFactor(userId));
  }
}

/**
 * Signed-out forms (log in, sign up): a double-submit token. GET hands out the cookie and
 * the matching token; POST must bring both back. SameSite=Lax keeps the cookie off
 * cross-site posts, so a forged post never matches.
 */
@Injectable()
export class SignedOutCsrfGuard implements CanActivate {
  constructor(private readonly sessions: DashboardSessionsService) {}

  canActivate(context: ExecutionContext): boolean {
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    let cookie = cookieOf(request, SIGNED_OUT_CSRF_COOKIE);
    if (!SAFE_METHODS.has(request.method)) {
      if (!this.sessions.checkAnonymousCsrf(cookie, csrfFieldOf(request))) {
        throw new CsrfRejectedException();
      }
    } else if (!cookie || cookie.length > 100) {
      cookie = randomBytes(32).toString('base64url');
      setCookie(reply, SIGNED_OUT_CSRF_COOKIE, cookie, cookieOptions(request));
    }
    addTemplateLocals(reply, {
      csrfToken: this.sessions.anonymousCsrfToken(cookie!),
    });
    return true;
  }
}
