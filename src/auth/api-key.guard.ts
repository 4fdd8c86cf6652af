import {
  CanActivate,
  ExecutionContext,
  ForbiddenException,
  Injectable,
  UnauthorizedException,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { ApiKeyService } from './api-key.service.js';
import { PERMISSION_ACTIONS, type Permission } from './permissions.js';
import {
  PRINCIPAL,
  principalCan,
  type ApiPrincipal,
  type RequestWithPrincipal,
} from './principal.js';
import { routeAccessOf } from './route-access.decorator.js';

export const API_KEY_REQUIRED =
  'API key required: send it in the x-api-key header or the apiKey query parameter';
export const API_KEY_INVALID = 'Invalid API key';
export const API_KEY_EXPIRED = 'API key expired';
export const ACCOUNT_KEY_REQUIRED =
  'This route needs an account key (fga_…): a form key reaches only its own form';
export const API_KEY_READ_ONLY =
  'This API key is read-only: it may only read (GET requests)';
export const ROUTE_WITHOUT_PERMISSION =
  'This route declares no permission, so no key may call it';

/** "This key cannot change forms": what a key whose role lacks `permission` is told. */
export function keyCannot(permission: Permission): string {
  return `This key cannot ${PERMISSION_ACTIONS[permission]}`;
}

const READ_METHODS = new Set(['GET', 'HEAD']);

/**
 * Why the principal may not make this request, or undefined when it may. A viewer key
 * (read-only, as it was called before roles) is told so in the words it always was.
 */
export function refusalOf(
  principal: ApiPrincipal,
  permission: Permission,
  method: string,
): string | undefined {
  if (principalCan(principal, permission)) return undefined;
  if (
    principal.kind === 'account' &&
    principal.role === 'viewer' &&
    !READ_METHODS.has(method.toUpperCase())
  ) {
    return API_KEY_READ_ONLY;
  }
  return keyCannot(permission);
}

/** First non-empty string of a header or query value that may have been repeated. */
function firstValue(value: unknown): string | undefined {
  const candidate = Array.isArray(value) ? value[0] : value;
  return typeof candidate === 'string' && candidate.trim() !== ''
    ? candidate.trim()
    : undefined;
}

export function extractApiKey(
  request: Pick<FastifyRequest, 'headers' | 'query'>,
): string | undefined {
  const query = (request.query ?? {}) as Record<string, unknown>;
  return firstValue(request.headers['x-api-key']) ?? firstValue(query.apiKey);
}

/**
 * 401 without a key, 403 with a key that matches nothing (or has expired, or whose role
 * lacks the permission the route declares with @Requires); else attaches the principal.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly keys: ApiKeyService,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context
      .switchToHttp()
      .getRequest<FastifyRequest & RequestWithPrincipal>();
    const key = extractApiKey(request);
    if (key === undefined) throw new UnauthorizedException(API_KEY_REQUIRED);
    const principal = await this.keys.authenticate(key);
    if (!principal) throw new ForbiddenException(API_KEY_INVALID);
    const access = routeAccessOf(this.reflector, context);
    // Fails closed: a key route must say what it needs (test/e2e/api/route-access.e2e-spec.ts).
    if (access?.kind !== 'permission') {
      throw new ForbiddenException(ROUTE_WITHOUT_PERMISSION);
    }
    const refusal = refusalOf(principal, access.permission, request.method);
    if (refusal !== undefined) throw new ForbiddenException(refusal);
    request[PRINCIPAL] = {
      ...principal,
      client: {
        ip: request.ip ?? null,
        userAgent: firstValue(request.headers['user-agent']) ?? null,
      },
    };
    return true;
  }
}

/** After ApiKeyGuard: 403 unless the key is an account key (or a member's session). */
@Injectable()
export class AccountKeyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const principal = context.switchToHttp().getRequest<RequestWithPrincipal>()[
      PRINCIPAL
    ];
    if (principal?.kind === 'form' || !principal) {
      throw new ForbiddenException(ACCOUNT_KEY_REQUIRED);
    }
    return true;
  }
}
