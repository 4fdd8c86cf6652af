import {
  applyDecorators,
  createParamDecorator,
  ExecutionContext,
  UseGuards,
  UseInterceptors,
} from '@nestjs/common';
import {
  ApiExtension,
  ApiForbiddenResponse,
  ApiSecurity,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { ErrorDto } from '../common/dto/error.dto.js';
import {
  API_KEY_HEADER_SCHEME,
  API_KEY_QUERY_SCHEME,
} from '../common/openapi/swagger.js';
import { AccountKeyGuard, ApiKeyGuard } from './api-key.guard.js';
import { KeyedPostInterceptor } from './keyed-post.interceptor.js';
import {
  PRINCIPAL,
  type ApiPrincipal,
  type RequestWithPrincipal,
} from './principal.js';

export interface ApiKeyAuthOptions {
  /**
   * Only an account key may call (not a form key, which reaches one form): for what
   * concerns the whole account, such as its keys and erasure.
   */
  accountKeyOnly?: boolean;
}

/**
 * Marks a controller as API-key protected: the guard, the Idempotency-Key handling of its
 * POSTs, the OpenAPI security requirement (header or query) and the 401/403 responses,
 * declared once together.
 */
export function ApiKeyAuth(
  options: ApiKeyAuthOptions = {},
): ClassDecorator & MethodDecorator {
  return applyDecorators(
    ...(options.accountKeyOnly
      ? [
          UseGuards(ApiKeyGuard, AccountKeyGuard),
          // Tells readers (and Swagger UI users) which key to authorize with.
          ApiExtension('x-account-key-only', true),
        ]
      : [UseGuards(ApiKeyGuard)]),
    // Idempotency-Key on the POSTs, once the key has said who is asking.
    UseInterceptors(KeyedPostInterceptor),
    ApiSecurity(API_KEY_HEADER_SCHEME),
    ApiSecurity(API_KEY_QUERY_SCHEME),
    ApiUnauthorizedResponse({
      type: ErrorDto,
      description: 'No API key was sent.',
      example: {
        error:
          'API key required: send it in the x-api-key header or the apiKey query parameter',
      },
    }),
    ApiForbiddenResponse({
      type: ErrorDto,
      description: options.accountKeyOnly
        ? 'The API key is not valid, has expired, is read-only and the request is not a read, its role lacks the permission of the route (its `x-permission`), or it is a form key (this route needs an account key).'
        : 'The API key is not valid, has expired, is read-only and the request is not a read, or its role lacks the permission of the route (its `x-permission`).',
      example: { error: 'Invalid API key' },
    }),
  );
}

/** The principal ApiKeyGuard attached to the request. */
export const Principal = createParamDecorator(
  (_data: unknown, context: ExecutionContext) => {
    const request = context.switchToHttp().getRequest<RequestWithPrincipal>();
    const principal = request[PRINCIPAL];
    if (!principal) {
      throw new Error('Principal requested on a route without @ApiKeyAuth()');
    }
    return principal satisfies ApiPrincipal;
  },
);
