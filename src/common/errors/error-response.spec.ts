import {
  BadRequestException,
  HttpException,
  NotFoundException,
  PayloadTooLargeException,
} from '@nestjs/common';
import {
  TemporarilyUnavailableException,
  TooManyRequestsException,
  ValidationFailedException,
} from './errors.js';
import { isDatabaseUnavailable } from '../database/driver-errors.js';
import { isClientAbort, toErrorResponse } from './error-response.js';

describe('toErrorResponse', () => {
  it('keeps only the error sentence of an HttpException', () => {
    expect(toErrorResponse(new NotFoundException('Form not found'))).toEqual({
      status: 404,
      body: { error: 'Form not found' },
      headers: {},
      unexpected: false,
    });
  });

  it('adds the list of problems for validation failures', () => {
    const response = toErrorResponse(
      new ValidationFailedException(['a is bad', 'b is bad']),
    );
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: 'Validation failed',
      errors: ['a is bad', 'b is bad'],
    });
  });

  it('hides router details of unknown routes', () => {
    expect(
      toErrorResponse(new NotFoundException('Cannot GET /secret')).body,
    ).toEqual({
      error: 'Not found',
    });
  });

  it('maps Fastify parser errors to fixed sentences', () => {
    const cause = Object.assign(new Error('Request body is too large'), {
      code: 'FST_ERR_CTP_BODY_TOO_LARGE',
    });
    const response = toErrorResponse(
      new PayloadTooLargeException('Request body is too large', { cause }),
    );
    expect(response).toMatchObject({
      status: 413,
      body: { error: 'Request body is too large' },
    });
    const json = toErrorResponse(
      new BadRequestException('Unexpected token', {
        cause: new SyntaxError('Unexpected token'),
      }),
    );
    expect(json.body).toEqual({ error: 'Request body is not valid JSON' });
  });

  it('answers 503 with Retry-After when the database is away', () => {
    const refused = Object.assign(
      new Error('connect ECONNREFUSED 127.0.0.1:3306'),
      {
        code: 'ECONNREFUSED',
      },
    );
    expect(isDatabaseUnavailable(refused)).toBe(true);
    expect(toErrorResponse(refused)).toEqual({
      status: 503,
      body: { error: 'Database unavailable, please retry shortly' },
      headers: { 'retry-after': '5' },
      unexpected: false,
    });
    expect(
      toErrorResponse(new TemporarilyUnavailableException()),
    ).toMatchObject({
      status: 503,
      headers: { 'retry-after': '5' },
      unexpected: false,
    });
  });

  it('never leaks the message of an unexpected error', () => {
    const response = toErrorResponse(
      new Error("ER_PARSE_ERROR near 'SELECT * FROM form'"),
    );
    expect(response).toEqual({
      status: 500,
      body: { error: 'Internal server error' },
      headers: {},
      unexpected: true,
    });
  });

  it('keeps 5xx HttpExceptions flagged as unexpected', () => {
    expect(toErrorResponse(new HttpException('boom', 500)).unexpected).toBe(
      true,
    );
  });
});

describe('a client that hangs up mid-request', () => {
  const aborted = () =>
    Object.assign(new Error('aborted'), { code: 'ECONNRESET' });
  const databaseReset = () =>
    Object.assign(new Error('read ECONNRESET'), {
      code: 'ECONNRESET',
      syscall: 'read',
      fatal: true,
    });

  it('is told apart from a database connection reset', () => {
    expect(isClientAbort(aborted())).toBe(true);
    expect(isClientAbort(databaseReset())).toBe(false);
    expect(isDatabaseUnavailable(databaseReset())).toBe(true);
  });

  it('is a 400 nobody reads, never a 503 or an unexpected error', () => {
    expect(toErrorResponse(aborted())).toEqual({
      status: 400,
      body: {
        error:
          'The client closed the connection before the request was complete',
      },
      headers: {},
      unexpected: false,
      clientGone: true,
    });
  });
});

describe('a limit of the service', () => {
  it('is a 429 with its sentence and Retry-After', () => {
    expect(
      toErrorResponse(new TooManyRequestsException('Too many lookups.', 42)),
    ).toEqual({
      status: 429,
      body: { error: 'Too many lookups.' },
      headers: { 'retry-after': '42' },
      unexpected: false,
    });
  });
});
