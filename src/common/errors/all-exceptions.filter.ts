import {
  ArgumentsHost,
  Catch,
  ExceptionFilter,
  Inject,
  Logger,
  Optional,
} from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  ERROR_ANSWER_WRITERS,
  sendErrorAnswer,
  type ErrorAnswerWriter,
} from './error-answer.js';
import { redactUrl } from '../logging/logger.js';
import { toErrorResponse } from './error-response.js';

/**
 * The one place every failure becomes `{error}` / `{error, errors}` JSON (or the answer of
 * the route's own writer, error-answer.ts).
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  constructor(
    @Optional()
    @Inject(ERROR_ANSWER_WRITERS)
    private readonly writers: readonly ErrorAnswerWriter[] = [],
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest>();
    const answer = toErrorResponse(exception);
    const { status, unexpected, clientGone } = answer;
    if (clientGone) {
      // Routine on the internet (a closed tab, a dropped mobile link), not an outage.
      this.logger.debug(
        `Connection closed before the request body arrived: ${request?.method ?? '?'} ${redactUrl(request?.url ?? '?')}`,
      );
    } else if (unexpected) {
      const where = `${request?.method ?? '?'} ${redactUrl(request?.url ?? '?')}`;
      this.logger.error(
        `Unhandled error on ${where}: ${exception instanceof Error ? exception.message : String(exception)}`,
        exception instanceof Error ? exception.stack : undefined,
        'Errors',
      );
    } else if (status === 503) {
      this.logger.warn(
        `Dependency unavailable: ${exception instanceof Error ? exception.message : String(exception)}`,
      );
    }
    if (reply.sent) return;
    sendErrorAnswer(request, reply, answer, exception, this.writers);
  }
}
