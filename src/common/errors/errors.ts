import { HttpException, HttpStatus } from '@nestjs/common';

/** What one entry of `errors` is about: the field it names, and its kind (a code). */
export interface ErrorIssue {
  field?: string;
  code?: string;
  /**
   * The message without the field's name that leads it ("must be an email address"), for
   * a page that names the field its own way; absent when the message does not start so.
   */
  detail?: string;
  /** The message is about every entry of the list (`each entry of $property …`). */
  entries?: boolean;
  /** The label its form gives the field, for a page a person reads (never in JSON). */
  label?: string;
}

/**
 * 400 `{error: "Validation failed", errors: [...]}`: one readable message per problem.
 * `issues`, parallel to `errors` when given, says which field and what kind each is about
 * (answered by the Formspree-compatible route; the messages alone everywhere else).
 */
export class ValidationFailedException extends HttpException {
  constructor(
    readonly errors: string[],
    readonly issues?: readonly ErrorIssue[],
    status: number = HttpStatus.BAD_REQUEST,
    message = 'Validation failed',
  ) {
    super(message, status);
  }
}

/** 413 `{error: "File too large", errors: ["<field>: larger than N bytes"]}`. */
export class FileTooLargeException extends ValidationFailedException {
  constructor(errors: string[], issues?: readonly ErrorIssue[]) {
    super(errors, issues, HttpStatus.PAYLOAD_TOO_LARGE, 'File too large');
  }
}

/**
 * 408 that closes the connection: a request body stopped arriving, or arrived too slowly
 * (docs/files.md), and nothing of it is kept — nor is the rest of it waited for.
 */
export class BodyTimeoutException extends HttpException {
  constructor(message = 'The request took too long to arrive') {
    super(message, HttpStatus.REQUEST_TIMEOUT);
  }
}

/** 429 with Retry-After: a limit of this service was reached; the sentence says which. */
export class TooManyRequestsException extends HttpException {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message, HttpStatus.TOO_MANY_REQUESTS);
  }
}

/** 503 with Retry-After: a dependency (the database) cannot serve the request now. */
export class TemporarilyUnavailableException extends HttpException {
  constructor(
    message = 'Service temporarily unavailable, please retry shortly',
    readonly retryAfterSeconds = 5,
  ) {
    super(message, HttpStatus.SERVICE_UNAVAILABLE);
  }
}

/** 409 with Retry-After: the resource is busy with another request; retry shortly. */
export class RetryLaterConflictException extends HttpException {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message, HttpStatus.CONFLICT);
  }
}
