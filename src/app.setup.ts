// Building the application, shared by main.ts and the end-to-end tests so both run
// exactly the same app.
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { IncomingMessage } from 'node:http';
import {
  LogController,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import type { DestinationStream, Logger as PinoLogger } from 'pino';
import { writeClientError } from './common/errors/client-error.js';
import { cutSlowHeaders } from './common/http/header-deadline.js';
import { toErrorResponse } from './common/errors/error-response.js';
import { createLogger, PinoNestLogger } from './common/logging/logger.js';
import { configureManagementApiContent } from './common/http/management-api-content.js';
import { setupSwagger } from './common/openapi/swagger.js';
import type { AppConfig, TrustProxy } from './config/app-config.js';
import { sendErrorAnswer } from './common/errors/error-answer.js';
import { configureSubmit } from './submit/submit.setup.js';
import {
  isPublicSubmitUrl,
  RATE_LIMITED_SUBMIT_ROUTES,
} from './submit/submit-urls.js';
import { SplitFastifyAdapter } from './common/http/split-fastify.adapter.js';
import { AppModule, ERROR_WRITERS } from './app.module.js';
import { configureDashboard } from './dashboard/dashboard.setup.js';
import { instrumentHttp } from './metrics/http-telemetry.js';
import { Metrics } from './metrics/metrics.js';
import { TRACING, type Tracing } from './tracing/tracing.js';

/**
 * One log line per request, written when it completes (with the request in it), instead of
 * a line when it arrives and another when it ends. A submission that was accepted is its own
 * record (the stored row): its line is at debug level, so a busy form does not flood the log.
 * Refused submissions (4xx, 5xx) are logged like every other request.
 */
class RequestLogController extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (error) {
      super.requestCompleted(error, request, reply);
      return;
    }
    const log = reply.log as PinoLogger;
    const level =
      reply.statusCode < 400 && isPublicSubmitUrl(request.url)
        ? 'debug'
        : 'info';
    if (!log.isLevelEnabled(level)) return;
    log[level](
      { req: request, res: reply, responseTime: reply.elapsedTime },
      'request completed',
    );
  }
}

/** A slow client gets this long to send a whole request. */
export const REQUEST_TIMEOUT_MS = 15_000;

export interface CreateAppOptions {
  /** Where JSON log lines go (stdout by default); tests capture them here. */
  logDestination?: DestinationStream;
  /**
   * Called with the Fastify instance once every route and hook of the app is in place,
   * before it starts: the tests add a hook that records each response (test/support).
   */
  observe?: (fastify: FastifyInstance) => void;
}

/**
 * Fastify fails closed on a numeric trustProxy, so a hop count becomes a function:
 * the nearest N addresses in the forwarding chain are trusted proxies.
 */
export function fastifyTrustProxy(
  trust: TrustProxy,
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return trust;
}

/** The POST routes the lean instance serves, and the requests it takes (split-fastify.adapter.ts). */
function isLeanRequest(request: IncomingMessage): boolean {
  return request.method === 'POST' && isPublicSubmitUrl(request.url ?? '');
}

export function createFastifyAdapter(
  config: AppConfig,
  logger: PinoLogger,
): SplitFastifyAdapter {
  return new SplitFastifyAdapter({
    fastify: {
      loggerInstance: logger,
      trustProxy: fastifyTrustProxy(config.trustProxy),
      bodyLimit: config.submitBodyLimit,
      // Node's whole-request timeout is off: it cannot spare an upload that keeps arriving.
      // cutSlowHeaders (header-deadline.ts) gives every other body REQUEST_TIMEOUT_MS.
      requestTimeout: 0,
      connectionTimeout: 60_000,
      keepAliveTimeout: 10_000,
      routerOptions: { maxParamLength: 200 },
      return503OnClosing: true,
      logController: new RequestLogController(),
      // Errors the router raises before any route runs (malformed URL) get our JSON shape too.
      clientErrorHandler: writeClientError,
      frameworkErrors: (
        error: Error,
        request: FastifyRequest,
        reply: FastifyReply,
      ) => {
        sendErrorAnswer(
          request,
          reply,
          toErrorResponse(error),
          error,
          ERROR_WRITERS,
        );
      },
    },
    // Given to Node's server at creation: set only afterwards, headers were checked only
    // at Node's next check, every 30 s by default.
    http: {
      headersTimeout: REQUEST_TIMEOUT_MS,
      requestTimeout: 0,
      connectionsCheckingInterval: 1000,
    },
    main: { forceCloseConnections: 'idle' },
    // The public submit routes: only their own hooks and parsers (submit.setup.ts).
    leanPostRoutes: RATE_LIMITED_SUBMIT_ROUTES,
    takes: isLeanRequest,
  });
}

/**
 * Request timing, submission outcomes and HTTP spans (metrics/http-telemetry.ts), first
 * among the hooks so that a request refused by one (the rate limit's 429) counts too. A
 * `traceparent` is joined everywhere but on the public submit routes.
 */
function configureTelemetry(app: NestFastifyApplication): void {
  const adapter = app.getHttpAdapter() as SplitFastifyAdapter;
  const metrics = app.get(Metrics);
  const tracing = app.get<symbol, Tracing>(TRACING);
  instrumentHttp(
    adapter.getInstance() as unknown as FastifyInstance,
    metrics,
    tracing,
    {
      joinsTrace: (url) => !isPublicSubmitUrl(url),
    },
  );
  instrumentHttp(adapter.lean, metrics, tracing, {
    submitRoutes: RATE_LIMITED_SUBMIT_ROUTES,
    joinsTrace: () => false,
  });
}

/** Everything the app needs beyond its modules: parsers, docs, shutdown. */
export async function configureApp(
  app: NestFastifyApplication,
  config: AppConfig,
  observe?: CreateAppOptions['observe'],
): Promise<void> {
  const adapter = app.getHttpAdapter() as SplitFastifyAdapter;
  const fastify = adapter.getInstance();
  // The headers of every request are due REQUEST_TIMEOUT_MS after its connection opened
  // (or the previous response ended), to the millisecond (header-deadline.ts).
  cutSlowHeaders(fastify.server, REQUEST_TIMEOUT_MS);
  configureTelemetry(app);
  // Fastify parses text/plain by default; no route of ours accepts it (→ 415).
  for (const instance of [fastify, adapter.lean]) {
    instance.removeContentTypeParser('text/plain');
  }
  configureManagementApiContent(app);
  configureSubmit(app);
  setupSwagger(app);
  await configureDashboard(app, config);
  await app.init();
  observe?.(fastify as unknown as FastifyInstance);
  observe?.(adapter.lean);
  await fastify.ready();
  await adapter.lean.ready();
}

export async function createApp(
  config: AppConfig,
  options: CreateAppOptions = {},
): Promise<NestFastifyApplication> {
  const logger = createLogger(config.logLevel, options.logDestination);
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot(config),
    createFastifyAdapter(config, logger),
    { logger: new PinoNestLogger(logger), abortOnError: false },
  );
  await configureApp(app, config, options.observe);
  return app;
}

/** SIGTERM/SIGINT: stop accepting, let in-flight requests finish, close the DB, exit 0. */
export function closeOnSignals(app: NestFastifyApplication): void {
  let closing = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    new Logger('Shutdown').log(
      `Received ${signal}: finishing in-flight requests`,
    );
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}
