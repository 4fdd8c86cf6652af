import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomBytes } from 'node:crypto';
import { AccountsService } from '../../accounts/accounts.service.js';
import { AppConfig } from '../../config/app-config.js';
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
  LoginRequiredException,
} from '../dashboard-exceptions.js';
import { DashboardSessionsService } from './dashboard-sessions.service.js';

/** The name of the hidden input carrying the CSRF token in every dashboard form. */
export const CSRF_FIELD = '_csrf';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function csrfFieldOf(request: FastifyRequest): unknown {
  const body = request.body;
  if (body === null || typeof body !== 'object') return undefined;
  return Object.hasOwn(body, CSRF_FIELD)
    ? (body as Record<string, unknown>)[CSRF_FIELD]
    : undefined;
}

/**
 * Signed-in pages: resolves the session cookie to its owner (else sends the visitor to
 * log in) and, on every state-changing request, checks the synchronizer CSRF token.
 */
@Injectable()
export class SignedInGuard implements CanActivate {
  constructor(
    private readonly sessions: DashboardSessionsService,
    private readonly accounts: AccountsService,
    private readonly config: AppConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const session = await this.sessions.find(cookieOf(request, SESSION_COOKIE));
    const account = session
      ? await this.accounts.findById(session.accountId)
      : null;
    if (!session || !account) {
      throw new LoginRequiredException(
        request.method === 'GET' ? request.url : undefined,
      );
    }
    if (!SAFE_METHODS.has(request.method)) {
      if (!this.sessions.checkCsrf(session, csrfFieldOf(request))) {
        throw new CsrfRejectedException();
      }
    }
    const csrfToken = this.sessions.csrfToken(session);
    const owner = {
      id: account.id,
      email: account.email,
      unverified: this.config.mail !== null && !account.emailVerifiedAt,
    };
    setDashboardContext(request, { owner, csrfToken });
    // Signed-in pages show keys and submissions: never store them in a cache.
    void reply.header('cache-control', 'no-store');
    addTemplateLocals(reply, { owner, csrfToken });
    return true;
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
