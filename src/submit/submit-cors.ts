// CORS for the public submit routes, and nothing else: `Access-Control-Allow-Origin: *` on
// every response under /api/submit/ and of the Formspree-compatible /f/:formId (errors
// Fastify raises before any guard — 413, 415, bad JSON — and the 429 included), the
// preflight answered with 204 before the rate limit sees it, and the rate-limit headers
// exposed to scripts. A Fastify hook rather than Nest's enableCors(), which would apply to
// every route.
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppConfig } from '../config/app-config.js';
import {
  rateLimitHeaders,
  RATE_LIMIT_HEADERS,
} from './rate-limit/rate-limit.headers.js';
import {
  RATE_LIMIT_STORAGE,
  type RateLimitStorage,
} from '../rate-limit/rate-limit.storage.js';
import { multipartParser } from './multipart-body.js';
import { submitUploads } from './submit-uploads.js';
import {
  submitRateLimitHook,
  submitRateLimitKey,
} from './rate-limit/submit-rate-limit.js';
import { isNavigation, MULTIPART_TYPE, pageFor } from './submit-navigation.js';
import { serveAltchaWidget } from './altcha/altcha-widget.js';
import {
  FORMSPREE_PREFLIGHT_HEADERS,
  FORMSPREE_ROUTE,
  formspreeErrorPayload,
  isFormspreeUrl,
} from './formspree/formspree-answers.js';

export const SUBMIT_PREFIX = '/api/submit';
/** The routes the submit rate limit counts (POST), by the path they are registered with. */
export const RATE_LIMITED_SUBMIT_ROUTES: ReadonlySet<string> = new Set([
  `${SUBMIT_PREFIX}/:formId`,
  FORMSPREE_ROUTE,
]);

export const SUBMIT_CORS_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': [
    ...RATE_LIMIT_HEADERS,
    'Idempotent-Replayed',
  ].join(', '),
};

export const SUBMIT_PREFLIGHT_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-methods': 'POST, OPTIONS',
  'access-control-allow-headers':
    'Content-Type, Accept, Accept-Language, X-Requested-With, Idempotency-Key',
  'access-control-max-age': '86400',
};

export const SUBMIT_GET_MESSAGE =
  'This address receives form submissions: send them with POST, from an HTML form (method="POST") or from a script (fetch with method "POST"), as JSON, form-encoded or multipart/form-data.';

export function isSubmitUrl(url: string): boolean {
  if (!url.startsWith(SUBMIT_PREFIX)) return false;
  const next = url.charAt(SUBMIT_PREFIX.length);
  return next === '' || next === '/' || next === '?';
}

/** Either public submit route: /api/submit/… or the Formspree-compatible /f/:formId. */
export function isPublicSubmitUrl(url: string): boolean {
  return isSubmitUrl(url) || isFormspreeUrl(url);
}

/**
 * The payload an answer of a submit route is sent with: the Formspree shapes for a script
 * calling /f/:formId with an error, else the page a navigating browser gets (or the
 * payload unchanged).
 */
function answerPayload(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): unknown {
  if (
    reply.statusCode >= 400 &&
    isFormspreeUrl(request.url) &&
    !isNavigation(request.headers)
  ) {
    return formspreeErrorPayload(request, reply.statusCode, payload);
  }
  return pageFor(request, reply, payload);
}

export function configureSubmit(app: NestFastifyApplication): void {
  const fastify = app.getHttpAdapter().getInstance();
  const config = app.get(AppConfig);
  const storage = app.get<symbol, RateLimitStorage>(RATE_LIMIT_STORAGE, {
    strict: false,
  });
  const windowMs = config.submitRateWindowSeconds * 1000;
  // The rate limit runs on the submit route alone, before its body is read: Nest registers
  // its routes on the root instance when the app initialises, after this, and each is
  // handed its own onRequest hook here, so no other request pays for it.
  const rateLimit = submitRateLimitHook({
    limit: config.submitRateLimit,
    windowSeconds: config.submitRateWindowSeconds,
    bodyLimit: config.submitBodyLimit,
    uploadBodyLimit: config.uploads.bodyLimit,
    storage,
  });
  fastify.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (
      !methods.includes('POST') ||
      !RATE_LIMITED_SUBMIT_ROUTES.has(route.url)
    ) {
      return;
    }
    const existing = route.onRequest;
    route.onRequest = [
      ...(existing === undefined
        ? []
        : Array.isArray(existing)
          ? existing
          : [existing]),
      rateLimit,
    ];
  });

  // onRequest runs before body parsing and routing, so whatever answers the request
  // later — handler, guard, parser error, 404 — the CORS headers are already on the reply.
  fastify.addHook(
    'onRequest',
    (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
      if (isPublicSubmitUrl(request.url)) {
        void reply.headers(SUBMIT_CORS_HEADERS);
      }
      done();
    },
  );

  // The preflight never reaches Nest, hence never the rate limit.
  fastify.route({
    method: 'OPTIONS',
    url: `${SUBMIT_PREFIX}/:formId`,
    handler: (_request, reply) => {
      void reply.code(204).headers(SUBMIT_PREFLIGHT_HEADERS).send();
    },
  });

  fastify.route({
    method: 'OPTIONS',
    url: FORMSPREE_ROUTE,
    handler: (_request, reply) => {
      void reply.code(204).headers(FORMSPREE_PREFLIGHT_HEADERS).send();
    },
  });

  // Opened in a browser, the endpoint explains itself instead of looking like a wrong id.
  for (const url of [`${SUBMIT_PREFIX}/:formId`, FORMSPREE_ROUTE]) {
    fastify.route({
      method: 'GET',
      url,
      handler: (_request, reply) => {
        void reply.code(405).header('allow', 'POST, OPTIONS').send({
          error: SUBMIT_GET_MESSAGE,
        });
      },
    });
  }
  // A submission refused from its headers alone (413, 415) still tells the client where
  // it stands, without spending any of its budget. A browser navigating
  // (a native form post) gets its answer as a page (submit-navigation.ts).
  fastify.addHook(
    'onSend',
    (
      request: FastifyRequest,
      reply: FastifyReply,
      payload: unknown,
      done: (error: null, payload: unknown) => void,
    ) => {
      if (request.method !== 'POST') {
        done(null, payload);
        return;
      }
      // Only the submit rate limit's hook sets this header.
      if (reply.hasHeader('x-ratelimit-limit')) {
        done(null, answerPayload(request, reply, payload));
        return;
      }
      if (!isPublicSubmitUrl(request.url)) {
        done(null, payload);
        return;
      }
      storage.peek(submitRateLimitKey(request.ip), windowMs).then(
        (snapshot) => {
          void reply.headers(
            rateLimitHeaders({
              limit: config.submitRateLimit,
              windowSeconds: config.submitRateWindowSeconds,
              remaining: config.submitRateLimit - snapshot.totalHits,
              resetSeconds: snapshot.timeToExpire,
            }),
          );
          done(null, answerPayload(request, reply, payload));
        },
        () => done(null, answerPayload(request, reply, payload)),
      );
    },
  );
  fastify.addContentTypeParser(
    MULTIPART_TYPE,
    multipartParser({
      limit: config.submitBodyLimit,
      uploadLimit: config.uploads.bodyLimit,
      idleTimeoutMs: config.uploads.idleTimeoutMs,
      accepts: isPublicSubmitUrl,
      uploadsFor: submitUploads(app),
    }),
  );
  serveAltchaWidget(fastify);
}
