import { ArgumentsHost, Catch, ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendErrorPage } from './error-page.js';

/**
 * Dashboard failures become HTML pages (or a redirect to log in), never the API's JSON.
 * Failures Fastify raises before a controller runs (a body too large, an unsupported
 * content type) get the same page through the route error handler in dashboard.setup.ts.
 */
@Catch()
export class DashboardExceptionFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    sendErrorPage(
      exception,
      http.getRequest<FastifyRequest>(),
      http.getResponse<FastifyReply>(),
    );
  }
}
