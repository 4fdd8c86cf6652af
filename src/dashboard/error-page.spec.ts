import { NotFoundException } from '@nestjs/common';
import {
  TemporarilyUnavailableException,
  TooManyRequestsException,
  ValidationFailedException,
} from '../common/errors/errors.js';
import { errorPageOf } from './error-page.js';

/** A FastifyError as its content-type parser raises it. */
function fastifyError(code: string, statusCode: number): Error {
  return Object.assign(new Error(`${code} internal wording`), {
    code,
    statusCode,
  });
}

describe('errorPageOf', () => {
  it('shows the sentence of a refused request under its title', () => {
    expect(errorPageOf(new NotFoundException('Form not found'))).toEqual({
      status: 404,
      headers: {},
      title: 'Page not found',
      message: 'Form not found',
      details: [],
    });
  });

  it('lists each validation problem', () => {
    const page = errorPageOf(new ValidationFailedException(['a is bad']));
    expect(page.status).toBe(400);
    expect(page.message).toBe('Validation failed');
    expect(page.details).toEqual(['a is bad']);
  });

  it('gives a body Fastify refused the status the API gives, not a 500', () => {
    const tooLarge = errorPageOf(
      fastifyError('FST_ERR_CTP_BODY_TOO_LARGE', 413),
    );
    expect(tooLarge).toMatchObject({
      status: 413,
      title: 'That was too much to send',
      message: 'Request body is too large',
    });
    const unsupported = errorPageOf(
      fastifyError('FST_ERR_CTP_INVALID_MEDIA_TYPE', 415),
    );
    expect(unsupported.status).toBe(415);
    expect(unsupported.message).toMatch(/^Unsupported content type/);
  });

  it('keeps Retry-After on a limit and on an outage', () => {
    expect(
      errorPageOf(
        new TooManyRequestsException('Too many sign-in attempts', 60),
      ),
    ).toMatchObject({ status: 429, headers: { 'retry-after': '60' } });
    expect(errorPageOf(new TemporarilyUnavailableException())).toMatchObject({
      status: 503,
      headers: { 'retry-after': '5' },
      message: 'Service temporarily unavailable, please retry shortly',
    });
  });

  it('says the database is away, in words, when it is', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED'), {
      code: 'ECONNREFUSED',
    });
    expect(errorPageOf(refused)).toMatchObject({
      status: 503,
      title: 'Formgate is briefly unavailable',
      headers: { 'retry-after': '5' },
      message:
        'The database is not answering right now. Please try again in a few seconds.',
    });
  });

  it('never shows the message of a fault of ours', () => {
    const page = errorPageOf(
      new Error('SQLITE_ERROR: no such column: secret in SELECT secret FROM x'),
    );
    expect(page.status).toBe(500);
    expect(page.title).toBe('Something went wrong');
    expect(page.message).toBe(
      'Something went wrong on our side. It has been logged; please try again in a moment.',
    );
    expect(page.details).toEqual([]);
  });

  it('says an interrupted request was not complete', () => {
    const aborted = Object.assign(new Error('aborted'), { code: 'ECONNRESET' });
    expect(errorPageOf(aborted)).toMatchObject({
      status: 400,
      message: 'The request was not complete.',
    });
  });
});
