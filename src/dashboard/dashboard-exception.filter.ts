import {
  ArgumentsHost,
  Catch,
  ExceptionFilter,
  HttpException,
  Logger,
} from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  ServiceUnavailableError,
  TooManyRequestsError,
  ValidationFailedException,
} from '../common/errors.js';
import {
  isClientAbort,
  isDatabaseUnavailable,
} from '../common/error-response.js';
import { redactUrl } from '../common/logger.js';
import { dashboardContextOf } from './dashboard-context.js';
import { LoginRequiredException } from './dashboard-exceptions.js';
import { dashboardViews } from './dashboard-views.js';
import { viewHelpers } from './view-helpers.js';

const TITLES: Record<number, string> = {
  400: 'Something is wrong with that request',
  401: 'Please log in',
  403: 'Request refused',
  404: 'Page not found',
  409: 'That clashes with something that exists',
  413: 'That was too much to send',
  429: 'Too many attempts',
  503: 'Formgate is briefly unavailable',
};

/**
 * Dashboard failures become HTML pages (or a redirect to log in), never the API's JSON.
 * The page is rendered synchronously with the engine instance: reply.view() from an
 * exception filter would send nothing.
 */
@Catch()
export class DashboardExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Dashboard');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    if (reply.sent) return;

    if (exception instanceof LoginRequiredException) {
      const next = exception.returnTo;
      const target =
        next && next !== '/dashboard' && next !== '/dashboard/forms'
          ? `/dashboard/login?next=${encodeURIComponent(next)}`
          : '/dashboard/login';
      void reply.redirect(target, 303);
      return;
    }

    let status = 500;
    let message =
      'Something went wrong on our side. It has been logged; please try again in a moment.';
    let details: string[] = [];
    if (exception instanceof HttpException) {
      status = exception.getStatus();
      message = exception.message;
      if (exception instanceof ValidationFailedException) {
        details = exception.errors;
      }
      if (
        exception instanceof TooManyRequestsError ||
        exception instanceof ServiceUnavailableError
      ) {
        void reply.header('retry-after', String(exception.retryAfterSeconds));
      }
    } else if (isClientAbort(exception)) {
      // The browser went away mid-post: nobody reads this page, nothing is wrong.
      this.logger.debug(
        `Connection closed before the request body arrived: ${request.method} ${redactUrl(request.url)}`,
      );
      status = 400;
      message = 'The request was not complete.';
    } else if (isDatabaseUnavailable(exception)) {
      status = 503;
      message =
        'The database is not answering right now. Please try again in a few seconds.';
      void reply.header('retry-after', '5');
    }
    if (status >= 500 && status !== 503) {
      this.logger.error(
        `Unhandled error on ${request.method} ${redactUrl(request.url)}: ${exception instanceof Error ? exception.message : String(exception)}`,
        exception instanceof Error ? exception.stack : undefined,
      );
      status = 500;
    }
    const context = dashboardContextOf(request);
    const html = dashboardViews.render('error', {
      status,
      title:
        TITLES[status] ??
        (status >= 500 ? 'Something went wrong' : 'Request refused'),
      message,
      details,
      owner: context?.owner,
      csrfToken: context?.csrfToken,
      h: viewHelpers,
    });
    void reply
      .status(status)
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(html);
  }
}
