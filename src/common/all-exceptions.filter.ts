import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { redactUrl } from './logger.js';
import { toErrorResponse } from './error-response.js';

/** The one place every failure becomes `{error}` / `{error, errors}` JSON. */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest>();
    const { status, body, headers, unexpected, clientGone } =
      toErrorResponse(exception);
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
    reply
      .status(status)
      .headers(headers)
      .type('application/json; charset=utf-8')
      .send(body);
  }
}
