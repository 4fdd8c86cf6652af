// The OpenAPI description of the health routes.
import { applyDecorators } from '@nestjs/common';
import {
  ApiOkResponse,
  ApiOperation,
  ApiRequestTimeoutResponse,
  ApiServiceUnavailableResponse,
} from '@nestjs/swagger';
import { ErrorDto } from '../common/dto/error.dto.js';
import { HealthStatusDto } from './dto/health-status.dto.js';

// Every route answers 408 to a client that takes too long to send its request; a health
// check has no other client error to declare.
const TOO_SLOW = ApiRequestTimeoutResponse({
  type: ErrorDto,
  description:
    'The request (headers and body) did not arrive within 15 seconds; the connection is closed.',
  example: { error: 'The request took too long to arrive' },
});

export const LivenessDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Liveness: the process is up (never touches the database)',
    }),
    ApiOkResponse({ type: HealthStatusDto }),
    TOO_SLOW,
  );

export const ReadinessDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Readiness: the database answers, the instance can take traffic',
    }),
    ApiOkResponse({ type: HealthStatusDto }),
    ApiServiceUnavailableResponse({
      type: ErrorDto,
      description: 'The database is not reachable.',
      example: { error: 'Database unavailable' },
    }),
    TOO_SLOW,
  );
