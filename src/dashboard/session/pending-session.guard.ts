import {
  CanActivate,
  ExecutionContext,
  createParamDecorator,
  Injectable,
} from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AccountsService } from '../../accounts/accounts.service.js';
import type { User } from '../../accounts/user.entity.js';
import { addTemplateLocals, cookieOf } from '../dashboard-context.js';
import {
  CsrfRejectedException,
  LoginRequiredException,
} from '../dashboard-exceptions.js';
import type { DashboardSession } from './dashboard-session.entity.js';
import { DashboardSessionsService } from './dashboard-sessions.service.js';
import { SESSION_COOKIE } from './session-cookie.js';

/** A half-signed-in session and its user: what the second step works with. */
export interface PendingSignIn {
  session: DashboardSession;
  user: User;
}

const PENDING = Symbol('formgate.pending-sign-in');
type WithPending = FastifyRequest & { [PENDING]?: PendingSignIn };

function csrfFieldOf(request: FastifyRequest): unknown {
  const body = request.body;
  if (body === null || typeof body !== 'object') return undefined;
  return Object.hasOwn(body, '_csrf')
    ? (body as Record<string, unknown>)._csrf
    : undefined;
}

/**
 * The second step's routes: the session cookie must be a half-signed-in session (the
 * password was right, a second factor is owed); its posts carry that session's CSRF token.
 * Anything else is sent to log in.
 */
@Injectable()
export class PendingSessionGuard implements CanActivate {
  constructor(
    private readonly sessions: DashboardSessionsService,
    private readonly accounts: AccountsService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const session = await this.sessions.find(cookieOf(request, SESSION_COOKIE));
    if (!session?.secondFactorPending) {
      throw new LoginRequiredException(undefined);
    }
    const user = await this.accounts.findUserById(session.userId);
    if (!user) throw new LoginRequiredException(undefined);
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      if (!this.sessions.checkCsrf(session, csrfFieldOf(request))) {
        throw new CsrfRejectedException();
      }
    }
    void reply.header('cache-control', 'no-store');
    addTemplateLocals(reply, { csrfToken: this.sessions.csrfToken(session) });
    (request as WithPending)[PENDING] = { session, user };
    return true;
  }
}

/** The half-signed-in session of a route behind PendingSessionGuard. */
export const Pending = createParamDecorator(
  (_data: unknown, ctx: ExecutionContext): PendingSignIn => {
    const pending = ctx.switchToHttp().getRequest<WithPending>()[PENDING];
    if (!pending) {
      throw new Error('Second-step route without PendingSessionGuard');
    }
    return pending;
  },
);
