// The session cookie: set when an owner signs in, cleared when they sign out.
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  cookieOptions,
  type CookieReply,
  setCookie,
} from '../dashboard-context.js';
import { SESSION_TTL_MS } from './dashboard-sessions.service.js';

export const SESSION_COOKIE = 'dashboard_session';

export function setSessionCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  token: string,
): void {
  setCookie(
    reply,
    SESSION_COOKIE,
    token,
    cookieOptions(request, SESSION_TTL_MS),
  );
}

export function clearSessionCookie(
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  (reply as unknown as CookieReply).clearCookie(
    SESSION_COOKIE,
    cookieOptions(request),
  );
}
