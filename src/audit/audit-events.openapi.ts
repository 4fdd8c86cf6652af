// The OpenAPI description of the audit log's routes, one composed decorator per route.
import { applyDecorators } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiOkResponse,
  ApiOperation,
} from '@nestjs/swagger';
import { ValidationErrorDto } from '../common/dto/error.dto.js';
import { AuditEventPageDto } from './dto/audit-event.dto.js';

const BAD_QUERY = {
  type: ValidationErrorDto,
  description: 'A filter or the cursor is not valid: one message per problem.',
};

export const ListAuditEventsDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'List audit events',
      description:
        "The account's audit log, newest first: who changed what, when and from where (docs/audit.md). Needs `audit.read` (an admin account key).",
    }),
    ApiOkResponse({ type: AuditEventPageDto }),
    ApiBadRequestResponse(BAD_QUERY),
  );

export const ExportAuditEventsDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Export audit events as NDJSON (streamed)',
      description:
        'Every matching event, newest first, one AuditEvent object per line; the same filters as the list. Needs `audit.read`.',
    }),
    ApiOkResponse({
      description: 'The file, sent as an attachment.',
      content: {
        'application/x-ndjson': {
          schema: { type: 'string' },
          example:
            '{"id":"01JNMZ6Q0S8V7K2D3F4G5H6J7K","at":"2026-12-01T12:34:56.789Z","actor":{"type":"member","id":"01JNMZ5Z","label":"ada@example.com"},"action":"form.updated","target":{"type":"form","id":"q2T9aY0bXk3LmN8pQr5sUw"},"details":{"name":{"before":"Contact","after":"Contact us"}},"ip":"203.0.113.7","userAgent":"Mozilla/5.0","hash":"…"}\n',
        },
      },
    }),
    ApiBadRequestResponse(BAD_QUERY),
  );
