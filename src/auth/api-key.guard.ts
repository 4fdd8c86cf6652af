import {
  CanActivate,
  ExecutionContext,
  ForbiddenException,
  Injectable,
  UnauthorizedException,
} from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ApiKeyService } from './api-key.service.js';
import { PRINCIPAL, type RequestWithPrincipal } from './principal.js';

export const API_KEY_REQUIRED =
  'API key required: send it in the x-api-key header or the apiKey query parameter';
export const API_KEY_INVALID = 'Invalid API key';

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

/** 401 without a key, 403 with a key that matches nothing; else attaches the principal. */
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
    request[PRINCIPAL] = principal;
    return true;
  }
}
