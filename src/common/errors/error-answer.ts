// How a failure is written on the reply. The API's answer is the `{error}` JSON of
// error-response.ts; a feature whose routes answer their failures another way (the public
// submit routes: a page for a navigating browser, Formspree's shape for its clients) gives
// a writer for its URLs, and every path a failure takes — the exception filter, Fastify's
// framework errors — asks sendErrorAnswer(), so no answer is rewritten after it was made.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorResponse } from './error-response.js';

export interface ErrorAnswerWriter {
  /** Whether this writer answers the failures of a request to `url`. */
  owns(url: string): boolean;
  write(
    request: FastifyRequest,
    reply: FastifyReply,
    answer: ErrorResponse,
    exception: unknown,
  ): void;
}

/** The writers of the features that answer failures their own way (app.module.ts). */
export const ERROR_ANSWER_WRITERS = Symbol('ERROR_ANSWER_WRITERS');

export function sendErrorAnswer(
  request: FastifyRequest,
  reply: FastifyReply,
  answer: ErrorResponse,
  exception: unknown,
  writers: readonly ErrorAnswerWriter[],
): void {
  for (const writer of writers) {
    if (writer.owns(request.url)) {
      writer.write(request, reply, answer, exception);
      return;
    }
  }
  void reply
    .status(answer.status)
    .headers(answer.headers)
    .type('application/json; charset=utf-8')
    .send(answer.body);
}
