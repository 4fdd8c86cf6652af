// Turns any thrown value into the one error shape of the API: `{error}` or
// `{error, errors}`, a status and extra headers. Pure, so it is unit-tested alone.
import { HttpException, HttpStatus } from '@nestjs/common';
import { STATUS_CODES } from 'node:http';
import {
  driverCode,
  isDatabaseUnavailable,
} from '../database/driver-errors.js';
import { ownEntry } from '../values/own-entry.js';
import {
  BodyTimeoutException,
  RetryLaterConflictException,
  TemporarilyUnavailableException,
  TooManyRequestsException,
  ValidationFailedException,
} from './errors.js';

export interface ErrorResponse {
  status: number;
  body: { error: string; errors?: string[] };
  headers: Record<string, string>;
  /** true when the cause is a fault of ours, to be logged with its stack */
  unexpected: boolean;
  /** true when the client hung up mid-request: nobody reads the answer, nothing is wrong */
  clientGone?: boolean;
}

const FASTIFY_MESSAGES: Record<string, [number, string]> = {
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'Request body is too large'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [
    415,
    'Unsupported content type: send application/json or application/x-www-form-urlencoded',
  ],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [
    400,
    'Content-Length does not match the body',
  ],
  FST_ERR_CTP_EMPTY_JSON_BODY: [
    400,
    'Request body is empty but declared as JSON',
  ],
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'Request body is not valid JSON'],
  FST_ERR_BAD_URL: [400, 'Malformed URL'],
  FST_ERR_MAX_PARAM_LENGTH: [414, 'A segment of the URL path is too long'],
  FST_ERR_ASYNC_CONSTRAINT: [400, 'Malformed request'],
};

/**
 * The client closed the connection before its request body had arrived: Node fails the
 * body stream with `aborted` (code ECONNRESET). The code alone is not enough: a database
 * connection reset by its server carries it too (`read ECONNRESET`).
 */
export function isClientAbort(error: unknown): boolean {
  return (
    error instanceof Error &&
    error.message === 'aborted' &&
    driverCode(error) === 'ECONNRESET'
  );
}

function fromHttpException(exception: HttpException): ErrorResponse {
  const status = exception.getStatus();
  const headers: Record<string, string> = {};
  if (exception instanceof ValidationFailedException) {
    return {
      status,
      body: { error: exception.message, errors: exception.errors },
      headers,
      unexpected: false,
    };
  }
  if (
    exception instanceof TemporarilyUnavailableException ||
    exception instanceof TooManyRequestsException ||
    exception instanceof RetryLaterConflictException
  ) {
    headers['retry-after'] = String(exception.retryAfterSeconds);
  }
  if (exception instanceof BodyTimeoutException) headers.connection = 'close';
  const cause = exception.cause as
    { code?: string; message?: string } | undefined;
  // The urlencoded parser refuses a __proto__ key with this message (JSON reports it as
  // invalid JSON: Fastify's parser does not say why).
  if (
    status === HttpStatus.BAD_REQUEST &&
    /prototype property/i.test(`${exception.message} ${cause?.message ?? ''}`)
  ) {
    return {
      status,
      body: {
        error:
          'Request body contains a forbidden key (__proto__ or constructor)',
      },
      headers,
      unexpected: false,
    };
  }
  const known = ownEntry(FASTIFY_MESSAGES, cause?.code);
  if (known) {
    return {
      status: known[0],
      body: { error: known[1] },
      headers,
      unexpected: false,
    };
  }
  if (
    status === HttpStatus.NOT_FOUND &&
    /^Cannot [A-Z]+ /.test(exception.message)
  ) {
    return { status, body: { error: 'Not found' }, headers, unexpected: false };
  }
  if (status === HttpStatus.BAD_REQUEST && cause instanceof SyntaxError) {
    return {
      status,
      body: { error: 'Request body is not valid JSON' },
      headers,
      unexpected: false,
    };
  }
  const response = exception.getResponse();
  let message = exception.message;
  if (typeof response === 'object' && response !== null) {
    // Nest's built-in bodies are {message, error: <status text>, statusCode}: the message
    // is the sentence. A custom body thrown as {error: '…'} carries it in `error`.
    const { message: text, error } = response as {
      message?: unknown;
      error?: unknown;
    };
    if (typeof text === 'string') message = text;
    else if (
      Array.isArray(text) &&
      text.every((item) => typeof item === 'string')
    ) {
      return {
        status,
        body: { error: 'Validation failed', errors: text as string[] },
        headers,
        unexpected: false,
      };
    } else if (typeof error === 'string') message = error;
  }
  return {
    status,
    body: { error: message },
    headers,
    // 503 means a dependency is away (logged as a warning), not a fault of ours.
    unexpected: status >= 500 && status !== HttpStatus.SERVICE_UNAVAILABLE,
  };
}

export function toErrorResponse(exception: unknown): ErrorResponse {
  if (exception instanceof HttpException) return fromHttpException(exception);
  if (isClientAbort(exception)) {
    return {
      status: HttpStatus.BAD_REQUEST,
      body: {
        error:
          'The client closed the connection before the request was complete',
      },
      headers: {},
      unexpected: false,
      clientGone: true,
    };
  }
  if (isDatabaseUnavailable(exception)) {
    return {
      status: HttpStatus.SERVICE_UNAVAILABLE,
      body: { error: 'Database unavailable, please retry shortly' },
      headers: { 'retry-after': '5' },
      unexpected: false,
    };
  }
  // A FastifyError with a 4xx status that was not mapped to an HttpException.
  const statusCode = (exception as { statusCode?: unknown } | null)?.statusCode;
  if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500) {
    const code = driverCode(exception);
    const known = ownEntry(FASTIFY_MESSAGES, code);
    return {
      status: known?.[0] ?? statusCode,
      body: { error: known?.[1] ?? STATUS_CODES[statusCode] ?? 'Bad request' },
      headers: {},
      unexpected: false,
    };
  }
  return {
    status: HttpStatus.INTERNAL_SERVER_ERROR,
    body: { error: 'Internal server error' },
    headers: {},
    unexpected: true,
  };
}
