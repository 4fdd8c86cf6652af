// The dashboard's HTML error page. The status, the headers and what kind of failure it is come
// from toErrorResponse(), as for the API's JSON: a dashboard page and an API call that fail
// the same way answer the same status. Only the wording is the dashboard's own.
import { HttpStatus, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable } from '../common/database/driver-errors.js';
import {
  toErrorResponse,
  type ErrorResponse,
} from '../common/errors/error-response.js';
import { redactUrl } from '../common/logging/logger.js';
import { dashboardContextOf } from './dashboard-context.js';
import {
  DashboardRedirectException,
  LoginRequiredException,
} from './dashboard-exceptions.js';
import { dashboardViews } from './dashboard-views.js';
import { viewHelpers } from './view-helpers.js';

const TITLES: Record<number, string> = {
  400: 'Something is wrong with that request',
  401: 'Please log in',
  403: 'Request refused',
  404: 'Page not found',
  409: 'That clashes with something that exists',
  413: 'That was too much to send',
  414: 'That address is too long',
  415: 'That kind of request is not accepted',
  429: 'Too many attempts',
  503: 'Formgate is briefly unavailable',
};

const FAULT_OF_OURS =
  'Something went wrong on our side. It has been logged; please try again in a moment.';
const CLIENT_GONE = 'The request was not complete.';
const DATABASE_AWAY =
  'The database is not answering right now. Please try again in a few seconds.';

export interface ErrorPage {
  status: number;
  headers: Record<string, string>;
  title: string;
  message: string;
  details: string[];
}

/**
 * What the page says. A 4xx shows the API's sentence (written for whoever made the request,
 * never an internal message); a fault of ours shows a generic one, its cause goes to the log.
 */
export function errorPageOf(
  exception: unknown,
  response: ErrorResponse = toErrorResponse(exception),
): ErrorPage {
  const { status, headers, body } = response;
  let message = body.error;
  if (response.clientGone) message = CLIENT_GONE;
  else if (status === HttpStatus.SERVICE_UNAVAILABLE) {
    if (isDatabaseUnavailable(exception)) message = DATABASE_AWAY;
  } else if (status >= 500) message = FAULT_OF_OURS;
  return {
    status,
    headers,
    title:
      TITLES[status] ??
      (status >= 500 ? 'Something went wrong' : 'Request refused'),
    message,
    details: status < 500 ? (body.errors ?? []) : [],
  };
}

const logger = new Logger('Dashboard');

/**
 * Answers a failed dashboard request: a redirect to log in, or the error page. Rendered
 * synchronously with the engine instance: reply.view() from an exception filter sends nothing.
 */
export function sendErrorPage(
  exception: unknown,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
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
  if (exception instanceof DashboardRedirectException) {
    void reply.redirect(exception.target, 303);
    return;
  }

  const response = toErrorResponse(exception);
  const where = `${request.method} ${redactUrl(request.url)}`;
  if (response.clientGone) {
    // The browser went away mid-post: nobody reads this page, nothing is wrong.
    logger.debug(`Connection closed before the request body arrived: ${where}`);
  } else if (response.unexpected) {
    logger.error(
      `Unhandled error on ${where}: ${exception instanceof Error ? exception.message : String(exception)}`,
      exception instanceof Error ? exception.stack : undefined,
    );
  }
  const page = errorPageOf(exception, response);
  const context = dashboardContextOf(request);
  const html = dashboardViews.render('error', {
    status: page.status,
    title: page.title,
    message: page.message,
    details: page.details,
    user: context?.user,
    account: context?.account,
    accounts: context?.accounts,
    csrfToken: context?.csrfToken,
    h: viewHelpers,
  });
  void reply
    .status(page.status)
    .headers(page.headers)
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(html);
}
