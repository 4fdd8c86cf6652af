import {
  CanActivate,
  ExecutionContext,
  ForbiddenException,
  Injectable,
  UnauthorizedException,
} from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ApiKeyService } from './api-key.service.js';
import {
  PRINCIPAL,
  refusesMethod,
  type RequestWithPrincipal,
} from './principal.js';

export const API_KEY_REQUIRED =
  'API key required: send it in the x-api-key header or the apiKey query parameter';
export const API_KEY_INVALID = 'Invalid API key';
export const API_KEY_EXPIRED = 'API key expired';
export const ACCOUNT_KEY_REQUIRED =
  'This route needs an account key (fga_…): a form key reaches only its own form';
export const API_KEY_READ_ONLY =
  'This API key is read-only: it may only read (GET requests)';

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
 * 401 without a key, 403 with a key that matches nothing (or has expired, or is read-only
 * and the request would change something); else attaches the principal.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(private readonly keys: ApiKeyService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context
      .switchToHttp()
      .getRequest<FastifyRequest & RequestWithPrincipal>();
    const key = extractApiKey(request);
    if (key === undefined) throw new UnauthorizedException(API_KEY_REQUIRED);
    const principal = await this.keys.authenticate(key);
    if (!principal) throw new ForbiddenException(API_KEY_INVALID);
    if (refusesMethod(principal, request.method)) {
      throw new ForbiddenException(API_KEY_READ_ONLY);
    }
    request[PRINCIPAL] = principal;
    return true;
  }
}

/** After ApiKeyGuard: 403 unless the key is an account key (or the owner's session). */
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
