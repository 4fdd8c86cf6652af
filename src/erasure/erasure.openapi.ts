// The OpenAPI description of the erasure routes, one composed decorator per route.
import { applyDecorators } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiOkResponse,
  ApiOperation,
  ApiServiceUnavailableResponse,
} from '@nestjs/swagger';
import { ErrorDto, ValidationErrorDto } from '../common/dto/error.dto.js';
import { ErasureRequestDto, ErasureResultDto } from './dto/erasure.dto.js';

const INVALID = {
  type: ValidationErrorDto,
  description: 'The address is missing or not an address.',
  example: {
    error: 'Validation failed',
    errors: ['email must be a valid email address'],
  },
};

const UNAVAILABLE = {
  type: ErrorDto,
  description: 'The database cannot be reached; retry after `Retry-After`.',
  example: { error: 'Service temporarily unavailable, please retry shortly' },
};

export const EraseDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Erase the submissions about a person (right to erasure)',
      description:
        'Deletes every submission of every form of the account that holds the address (see `email`), with its notification deliveries and stored files, and answers how many went from how many forms. `dryRun: true` only counts. Needs an account key that is not read-only. Runs until done (a million stored submissions take seconds to a minute); the log records that an erasure ran and its counts, never the address.',
    }),
    ApiBody({ type: ErasureRequestDto }),
    ApiOkResponse({ type: ErasureResultDto }),
    ApiBadRequestResponse(INVALID),
    ApiServiceUnavailableResponse(UNAVAILABLE),
  );

export const ExportErasureDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Export the submissions about a person (right of access)',
      description:
        'Streams, as NDJSON (one `Submission` per line, form by form, oldest first), every submission of the account that holds the address — exactly those `POST /api/v1/erasure` would delete. Needs an account key; a read-only one may. The `email` parameter is never written to the log.',
    }),
    ApiOkResponse({
      description: 'One `Submission` object per line.',
      content: {
        'application/x-ndjson': {
          schema: { type: 'string' },
          example:
            '{"id":"01J…","formId":"q3Jv0cXh9S2mB7dLwEo4Tg","data":{"email":"ada@example.com","message":"Hello"},"createdAt":"2026-11-24T10:15:30.123Z","meta":{"ip":"203.0.113.9","userAgent":"Mozilla/5.0","origin":"https://www.example.com"}}\n',
        },
      },
    }),
    ApiBadRequestResponse(INVALID),
    ApiServiceUnavailableResponse(UNAVAILABLE),
  );
