// Timing and tracing of HTTP requests: one onResponse hook per Fastify instance reads the
// route pattern (never the URL, whose ids would make a series each) and the status, and on
// the submit routes' instance counts what became of each post (submission-outcome.ts).
// Nothing is installed that nobody reads: no hook without METRICS_PORT or tracing.
import type { FastifyInstance } from 'fastify';
import {
  HTTP_STATUS_CODE,
  type Span,
  type Tracing,
} from '../tracing/tracing.js';
import {
  Metrics,
  UNMATCHED_ROUTE,
  type SubmissionCounters,
} from './metrics.js';
import { submissionOutcome } from './submission-outcome.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's server span while tracing is on. */
    formgateSpan: Span | null;
  }
}

export interface HttpTelemetryOptions {
  /** The submit routes this instance serves (their patterns), whose posts are counted. */
  submitRoutes?: ReadonlySet<string>;
  /** Whether a request's `traceparent` is joined (false: every request starts a trace). */
  joinsTrace(url: string): boolean;
}

export function instrumentHttp(
  fastify: FastifyInstance,
  metrics: Metrics,
  tracing: Tracing,
  options: HttpTelemetryOptions,
): void {
  const measure = metrics.exposed;
  if (!measure && !tracing.enabled) return;
  const submissions = new Map<string, SubmissionCounters>();
  if (measure) {
    for (const route of options.submitRoutes ?? []) {
      submissions.set(route, metrics.submissionCounters(route));
    }
  }
  if (options.submitRoutes !== undefined) {
    fastify.decorateRequest('formgateVerdict', null);
  }
  if (tracing.enabled) {
    fastify.decorateRequest('formgateSpan', null);
    fastify.addHook('onRequest', (request, _reply, done) => {
      const header = request.headers.traceparent;
      request.formgateSpan = tracing.startHttp(
        request.method,
        request.routeOptions.url,
        typeof header === 'string' && options.joinsTrace(request.url)
          ? header
          : undefined,
      );
      done();
    });
  }
  const traced = tracing.enabled;
  fastify.addHook('onResponse', (request, reply, done) => {
    const status = reply.statusCode;
    if (measure) {
      const route = request.routeOptions.url;
      metrics
        .httpRoute(route ?? UNMATCHED_ROUTE)
        .observe(request.method, status, reply.elapsedTime / 1000);
      const counters = route === undefined ? undefined : submissions.get(route);
      if (counters !== undefined) {
        counters[submissionOutcome(status, request.formgateVerdict)].inc();
      }
    }
    // Only read where it was decorated: an undeclared property costs every request.
    if (traced) {
      request.formgateSpan?.end({ [HTTP_STATUS_CODE]: status }, status >= 500);
    }
    done();
  });
}
