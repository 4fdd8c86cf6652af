// The OpenAPI description of each submissions route, one composed decorator per route.
import { applyDecorators } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
} from '@nestjs/swagger';
import { ErrorDto, ValidationErrorDto } from '../common/dto/error.dto.js';
import {
  DeletedSubmissionsDto,
  SubmissionDto,
  SubmissionPageDto,
} from './dto/submission.dto.js';
import { UpdateSubmissionDto } from './dto/update-submission.dto.js';
import {
  BulkResultDto,
  BulkSubmissionsDto,
} from './dto/bulk-submissions.dto.js';

export const SUBMISSION_ID_PARAM = {
  name: 'submissionId',
  description:
    'The submission identifier: an `id` from the list of the form’s submissions.',
};
const BAD_QUERY_RESPONSE = {
  type: ValidationErrorDto,
  description:
    'A query parameter is malformed: `{error: "Validation failed", errors}` for limit/from/to/q/format, `{error}` for a bad cursor or from later than to.',
  examples: {
    limit: {
      summary: 'limit out of range',
      value: {
        error: 'Validation failed',
        errors: ['limit must not be greater than 100'],
      },
    },
    date: {
      summary: 'unreadable date',
      value: {
        error: 'Validation failed',
        errors: [
          'from must be an ISO 8601 date or date-time, e.g. 2025-05-01 or 2025-05-01T12:00:00Z',
        ],
      },
    },
    cursor: {
      summary: 'bad cursor',
      value: {
        error:
          'Invalid cursor: pass the nextCursor of the previous page unchanged',
      },
    },
  },
};
export const UNAVAILABLE_RESPONSE = {
  type: ErrorDto,
  description:
    'The database is unreachable; retry after `Retry-After` seconds.',
  example: { error: 'Database unavailable, please retry shortly' },
};

/** Key-protected submissions management: /api/v1/forms/:id/submissions… */

/** 404 of the routes that address one submission. */
export const SUBMISSION_NOT_FOUND_RESPONSE = {
  type: ErrorDto,
  description:
    'No such form or submission (or the key does not reach the form).',
  examples: {
    submission: {
      summary: 'unknown submission',
      value: { error: 'Submission not found' },
    },
    form: { summary: 'unknown form', value: { error: 'Form not found' } },
  },
};
export const ListSubmissionsDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'List submissions, newest first, with cursor paging',
      description:
        'The submissions that are not spam, or with `spam=true` only the spam folder. Ordered by createdAt then id, both descending. Follow `nextCursor` until it is null: every submission that existed when paging began is returned exactly once, even while new ones arrive (they appear on a fresh first page). `from` is inclusive, `to` exclusive. With `q`, each request examines at most 10,000 submissions, so a page can be short (or empty) while `nextCursor` is still set.',
    }),
    ApiOkResponse({ type: SubmissionPageDto, description: 'One page.' }),
    ApiBadRequestResponse(BAD_QUERY_RESPONSE),
  );

export const ExportSubmissionsDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Export submissions as CSV or NDJSON (streamed)',
      description:
        'Streams every matching submission, newest first, straight from the database in batches. ' +
        'CSV: a header row `id,createdAt,<field ids in form order>` (for a form without fields: every key seen, in the order keys first appeared), RFC 4180 quoting with CRLF line ends, and text cells beginning with = + - @ tab or CR prefixed with an apostrophe. ' +
        'NDJSON: one Submission object per line. Takes the same from/to/q/spam filters as the list (spam is left out unless `spam=true`).',
    }),
    ApiOkResponse({
      description: 'The file, sent as an attachment.',
      headers: {
        'Content-Disposition': {
          description:
            'attachment; filename="<form-name>-submissions-<YYYY-MM-DD>.<csv|ndjson>"',
          schema: {
            type: 'string',
            example:
              'attachment; filename="contact-submissions-2025-05-01.csv"',
          },
        },
      },
      content: {
        'text/csv': {
          schema: { type: 'string' },
          example:
            'id,createdAt,name,email,message\r\n01JNMZ6Q0S8V7K2D3F4G5H6J7K,2025-05-01T12:34:56.789Z,Ada Lovelace,ada@example.com,"Hello, world"\r\n',
        },
        'application/x-ndjson': {
          schema: { type: 'string' },
          example:
            '{"id":"01JNMZ6Q0S8V7K2D3F4G5H6J7K","formId":"q2T9aY0bXk3LmN8pQr5sUw","data":{"name":"Ada Lovelace"},"createdAt":"2025-05-01T12:34:56.789Z","meta":{"ip":"203.0.113.7","userAgent":"Mozilla/5.0","origin":"https://www.example.com"},"spam":false,"spamReasons":[]}\n',
        },
      },
    }),
    ApiBadRequestResponse(BAD_QUERY_RESPONSE),
  );

export const GetSubmissionDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({ summary: 'Read one submission' }),
    ApiParam(SUBMISSION_ID_PARAM),
    ApiOkResponse({ type: SubmissionDto }),
    ApiNotFoundResponse(SUBMISSION_NOT_FOUND_RESPONSE),
  );

export const DeleteSubmissionDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({ summary: 'Delete one submission' }),
    ApiParam(SUBMISSION_ID_PARAM),
    ApiNoContentResponse({ description: 'Deleted.' }),
    ApiNotFoundResponse(SUBMISSION_NOT_FOUND_RESPONSE),
  );

export const DeleteSubmissionsDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Delete many submissions',
      description:
        'Deletes the submissions created in [from, to) — without bounds, every submission of the form that existed when the request began. Like the list it acts on one folder: the submissions that are not spam, or with `spam=true` the spam folder. Runs in batches.',
    }),
    ApiOkResponse({ type: DeletedSubmissionsDto }),
    ApiBadRequestResponse(BAD_QUERY_RESPONSE),
  );

export const FileSubmissionDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Work on a submission: status, assignee, labels, spam folder',
      description:
        'Sets any of `status`, `assigneeId` (a member of the form\'s account, or null), `labels` (the names it then has; existing labels only) and `spam`. `{"spam": false}` moves it out of the spam folder and then creates its notifications (webhooks, emails) as if it had just arrived — once, however often it is repeated. `{"spam": true}` moves it into the spam folder (reason `marked-by-owner`). Answers the submission as it now is.',
    }),
    ApiParam(SUBMISSION_ID_PARAM),
    ApiBody({ type: UpdateSubmissionDto }),
    ApiOkResponse({ type: SubmissionDto }),
    ApiBadRequestResponse({
      type: ValidationErrorDto,
      description:
        'The body is not valid, sets nothing, names an assignee who is not a member of the account, or a label the account does not have.',
      example: {
        error: 'Validation failed',
        errors: ['spam must be true or false'],
      },
    }),
    ApiNotFoundResponse(SUBMISSION_NOT_FOUND_RESPONSE),
  );

export const BulkSubmissionsDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      summary: 'Work on many submissions at once',
      description:
        "`ids` (at most 500, one transaction) or `filter` (the list's own query properties: every matching clean submission, in batches), and `set`: `status`, `assigneeId`, `addLabels`, `removeLabels`. Answers how many it changed.",
    }),
    ApiBody({ type: BulkSubmissionsDto }),
    ApiOkResponse({ type: BulkResultDto }),
    ApiBadRequestResponse({
      type: ValidationErrorDto,
      description:
        'The body is not valid (more than 500 ids, neither or both of ids and filter, nothing to set), or names an assignee who is not a member or an unknown label.',
      example: {
        error: 'Validation failed',
        errors: ['ids must list at most 500 submissions'],
      },
    }),
  );
