// What a dashboard request knows about its signed-in user and the account they work in,
// and the cookies that carry it.
import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { fastifyCookie } from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AccountMembership } from '../accounts/memberships.service.js';
import type { Role } from '../auth/permissions.js';
import type { ApiPrincipal } from '../auth/principal.js';
import type { SignInMethod } from './sign-in-method.js';

/** Double-submit cookie protecting the signed-out forms (log in, sign up). */
export const SIGNED_OUT_CSRF_COOKIE = 'dashboard_csrf';
export const COOKIE_PATH = '/dashboard';

/** The person signed in. */
export interface DashboardUser {
  id: string;
  email: string;
  /** Mail is on and the user's address is not verified: the pages say so. */
  unverified?: boolean;
}

/** The account the session works in, and the user's role in it. */
export interface DashboardAccount {
  id: string;
  name: string;
  role: Role;
}

/** The session of this request: which one (the sessions page) and how it signed in. */
export interface DashboardSessionInfo {
  tokenHash: string;
  method: SignInMethod;
}

export interface DashboardContext {
  user: DashboardUser;
  session: DashboardSessionInfo;
  account: DashboardAccount;
  /** Every account the user is a member of (the header's switcher when more than one). */
  accounts: readonly AccountMembership[];
  csrfToken: string;
  /** Where the request came from (the audit log records it). */
  client?: { ip: string | null; userAgent: string | null };
}

/** Whom the dashboard acts for: the member, reaching every form of the account with their role. */
export function memberPrincipal(context: DashboardContext): ApiPrincipal {
  return {
    kind: 'member',
    accountId: context.account.id,
    userId: context.user.id,
    role: context.account.role,
    label: context.user.email,
    ...(context.client ? { client: context.client } : {}),
  };
}

const CONTEXT = Symbol('formgate.dashboard');
type WithContext = FastifyRequest & { [CONTEXT]?: DashboardContext };

export function setDashboardContext(
  request: FastifyRequest,
  context: DashboardContext,
): void {
  (request as WithContext)[CONTEXT] = context;
}

export function dashboardContextOf(
  request: FastifyRequest,
): DashboardContext | undefined {
  return (request as WithContext)[CONTEXT];
}

/** The signed-in member's context; only on routes behind SignedInGuard. */
export const Dashboard = createParamDecorator(
  (_data: unknown, ctx: ExecutionContext): DashboardContext => {
    const context = dashboardContextOf(
      ctx.switchToHttp().getRequest<FastifyRequest>(),
    );
    if (!context) throw new Error('Dashboard route without SignedInGuard');
    return context;
  },
);

// @fastify/cookie's and @fastify/view's type augmentations do not merge with Fastify 5's
// generic request/reply interfaces under `nodenext`, so the few members used are typed here.
export interface CookieOptions {
  path: string;
  httpOnly: boolean;
  sameSite: 'lax';
  secure: boolean;
  maxAge?: number;
}
interface WithCookies {
  cookies?: Record<string, string | undefined>;
}
export interface CookieReply {
  setCookie(name: string, value: string, options: CookieOptions): unknown;
  clearCookie(name: string, options: CookieOptions): unknown;
  locals?: Record<string, unknown>;
}

/**
 * A cookie of the request. Cookies are parsed here, on first use, rather than by a hook on
 * every request: the public submit route never pays for them.
 */
export function cookieOf(
  request: FastifyRequest,
  name: string,
): string | undefined {
  const withCookies = request as unknown as WithCookies;
  const cookies = (withCookies.cookies ??= fastifyCookie.parse(
    request.headers.cookie ?? '',
  ));
  return Object.hasOwn(cookies, name) ? cookies[name] : undefined;
}

export function setCookie(
  reply: FastifyReply,
  name: string,
  value: string,
  options: CookieOptions,
): void {
  (reply as unknown as CookieReply).setCookie(name, value, options);
}

/** Values every template of this request sees (@fastify/view merges reply.locals in). */
export function addTemplateLocals(
  reply: FastifyReply,
  values: Record<string, unknown>,
): void {
  const typed = reply as unknown as CookieReply;
  typed.locals = { ...typed.locals, ...values };
}

/** HttpOnly, SameSite=Lax, scoped to /dashboard, Secure whenever the request came over HTTPS. */
export function cookieOptions(
  request: FastifyRequest,
  maxAgeMs?: number,
): CookieOptions {
  return {
    path: COOKIE_PATH,
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: request.protocol === 'https',
    ...(maxAgeMs === undefined ? {} : { maxAge: Math.floor(maxAgeMs / 1000) }),
  };
}

/** Where to go after signing in: only paths inside the dashboard, never another host. */
export function safeNextPath(next: unknown): string {
  if (
    typeof next === 'string' &&
    /^\/dashboard(?:[/?][^\s\\]*)?$/.test(next) &&
    !next.startsWith('//')
  ) {
    return next;
  }
  return '/dashboard/forms';
}

/** Origin the snippets should post to, as the browser reached us. */
export function baseUrlOf(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}
