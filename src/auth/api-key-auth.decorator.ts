import {
  applyDecorators,
  createParamDecorator,
  ExecutionContext,
  UseGuards,
} from '@nestjs/common';
import {
  ApiForbiddenResponse,
  ApiSecurity,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { ErrorDto } from '../common/dto/error.dto.js';
import {
  API_KEY_HEADER_SCHEME,
  API_KEY_QUERY_SCHEME,
} from '../common/swagger.js';
import { ApiKeyGuard } from './api-key.guard.js';
import {
  PRINCIPAL,
  type ApiPrincipal,
  type RequestWithPrincipal,
} from './principal.js';

/**
 * Marks a controller or route as API-key protected: the guard, the OpenAPI security
 * requirement (header or query) and the 401/403 responses, declared once together.
 */
export function ApiKeyAuth(): ClassDecorator & MethodDecorator {
  return applyDecorators(
    UseGuards(ApiKeyGuard),
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
      description: 'The API key is not valid.',
      example: { error: 'Invalid API key' },
    }),
  );
}

/** The principal ApiKeyGuard attached to the request. */
export const Principal = createParamDecorator(
  (_data: unknown, context: ExecutionContext) => {
    const request = context.switchToHttp().getRequest<RequestWithPrincipal>();
    const principal = request[PRINCIPAL];
    if (!principal)
      throw new Error('Principal requested on a route without @ApiKeyAuth()');
    return principal satisfies ApiPrincipal;
  },
);
