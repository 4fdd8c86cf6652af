// Nest's FastifyAdapter, with a few routes served by a second, lean Fastify instance on the
// same HTTP server. Nest puts every route and hook on one root instance: its own request
// hooks (application hooks, CORS, security headers, shutdown, versioning), middie, and the
// dashboard's helmet, view, cookie and static plugins; a root hook runs for every request.
// The public submit routes need none of them, and on them those hooks cost more CPU than
// the rest of the request (docs/performance.md). Their controllers stay ordinary Nest
// controllers — documented by Swagger, answered through the global exception filter (Nest's
// error and not-found handlers are installed on both instances) — only the Fastify
// instance their routes are registered on, and the hooks around them, differ.
import { BadRequestException } from '@nestjs/common';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { parse as parseQueryString } from 'fast-querystring';
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type ServerOptions,
} from 'node:http';
import { TemporarilyUnavailableException } from '../errors/errors.js';

export interface SplitFastifyOptions {
  /** Fastify options shared by both instances (logger, trust proxy, body limit, errors…). */
  fastify: FastifyServerOptions & {
    keepAliveTimeout: number;
    connectionTimeout: number;
    requestTimeout: number;
  };
  /** Options of the one Node HTTP server both instances answer on. */
  http: ServerOptions;
  /** Options only the main instance takes (the server's connections are its to close). */
  main?: FastifyServerOptions;
  /** POST routes, as Nest registers them, that the lean instance serves. */
  leanPostRoutes: ReadonlySet<string>;
  /** Whether a request goes to the lean instance: decided from its method and URL alone. */
  takes(request: IncomingMessage): boolean;
}

type NestHandler = (request: FastifyRequest, reply: FastifyReply) => unknown;

/** Request ids unique across both instances, as Fastify's own (`req-1`, `req-2`, …). */
function requestIds(): () => string {
  let next = 0;
  return () => {
    next = (next + 1) & 0x7fffffff;
    return `req-${next.toString(36)}`;
  };
}

/**
 * Form-encoded bodies as Nest's adapter parses them on the main instance: fast-querystring,
 * and a `__proto__` key refused like the JSON parser refuses one.
 */
function parseFormBody(
  _request: FastifyRequest,
  body: Buffer,
  done: (error: Error | null, body?: unknown) => void,
): void {
  const parsed = parseQueryString(body.toString()) as Record<string, unknown>;
  if (Object.hasOwn(parsed, '__proto__')) {
    done(
      new BadRequestException('Object contains forbidden prototype property'),
    );
    return;
  }
  done(null, parsed);
}

/**
 * Nest's adapter sends a request whose route parameter is empty (`/api/submit/`) to the
 * not-found handler, as path-to-regexp would not have matched it; so does this one.
 */
function withNonEmptyParams(handler: NestHandler): NestHandler {
  return function route(this: unknown, request, reply) {
    const params = request.params as Record<string, string>;
    for (const name in params) {
      if (params[name] === '') {
        reply.callNotFound();
        return undefined;
      }
    }
    return handler.call(this, request, reply);
  };
}

export class SplitFastifyAdapter extends FastifyAdapter {
  /** The instance that serves `leanPostRoutes`. */
  readonly lean: FastifyInstance;
  private readonly leanPostRoutes: ReadonlySet<string>;
  private closing = false;

  constructor(options: SplitFastifyOptions) {
    const shared: FastifyServerOptions = {
      ...options.fastify,
      genReqId: requestIds(),
    };
    let leanHandler: RequestListener | undefined;
    const lean = Fastify({
      ...shared,
      // Never listens: the main instance's server hands it its requests.
      serverFactory: (handler) => {
        leanHandler = handler;
        return createServer();
      },
    }) as unknown as FastifyInstance;
    super({
      ...shared,
      ...options.main,
      serverFactory: (mainHandler: RequestListener) => {
        const server = createServer(options.http, (request, response) => {
          if (leanHandler !== undefined && options.takes(request)) {
            leanHandler(request, response);
          } else {
            mainHandler(request, response);
          }
        });
        // What Fastify sets on a server it creates itself.
        server.keepAliveTimeout = options.fastify.keepAliveTimeout;
        server.requestTimeout = options.fastify.requestTimeout;
        server.setTimeout(options.fastify.connectionTimeout);
        return server;
      },
    });
    this.lean = lean;
    this.leanPostRoutes = options.leanPostRoutes;
    lean.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'buffer', bodyLimit: lean.initialConfig.bodyLimit },
      parseFormBody,
    );
    // Like Nest's own hook on the main instance: nothing new starts once closing began.
    lean.addHook('onRequest', (_request, reply, done) => {
      if (!this.closing) {
        done();
        return;
      }
      void reply.header('connection', 'close');
      done(
        new TemporarilyUnavailableException('The server is shutting down', 1),
      );
    });
  }

  // Nest registers each controller route through these; the lean ones go to their instance.
  override post(...args: unknown[]) {
    const [path] = args;
    if (typeof path === 'string' && this.leanPostRoutes.has(path)) {
      this.lean.route({
        method: 'POST',
        url: path,
        handler: withNonEmptyParams(args[args.length - 1] as NestHandler),
      });
      return this.getInstance();
    }
    return super.post(...args);
  }

  override setErrorHandler(
    handler: Parameters<FastifyAdapter['setErrorHandler']>[0],
  ) {
    this.lean.setErrorHandler(
      handler as Parameters<FastifyInstance['setErrorHandler']>[0],
    );
    return super.setErrorHandler(handler);
  }

  override setNotFoundHandler(handler: NestHandler) {
    this.lean.setNotFoundHandler(handler);
    return super.setNotFoundHandler(handler);
  }

  override beforeClose(): void {
    this.closing = true;
    super.beforeClose();
  }

  override async close(): Promise<void> {
    this.closing = true;
    try {
      await super.close();
    } finally {
      await this.lean.close();
    }
  }
}
