// CORS for the public submit routes, and nothing else: `Access-Control-Allow-Origin: *` on
// every response under /api/submit/ and of the Formspree-compatible /f/:formId (errors
// Fastify raises before any guard — 413, 415, bad JSON — and the 429 included), the
// preflight answered with 204 before the rate limit sees it, and the rate-limit headers
// exposed to scripts. A Fastify hook rather than Nest's enableCors(), which would apply to
// every route.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { RATE_LIMIT_HEADERS } from './rate-limit/rate-limit.headers.js';
import {
  FORMSPREE_PREFLIGHT_HEADERS,
  FORMSPREE_ROUTE,
} from './formspree/formspree-answers.js';
import { isPublicSubmitUrl, SUBMIT_ROUTE } from './submit-urls.js';

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

/**
 * CORS on the instances that serve the submit URLs (`fastify`, which also answers the
 * preflights, and the lean instance of their POST routes).
 */
export function configureSubmitCors(
  fastify: FastifyInstance,
  lean: FastifyInstance,
): void {
  // onRequest runs before body parsing and routing, so whatever answers the request
  // later — handler, guard, parser error, 404 — the CORS headers are already on the reply.
  for (const instance of [fastify, lean]) {
    instance.addHook(
      'onRequest',
      (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
        if (isPublicSubmitUrl(request.url)) {
          void reply.headers(SUBMIT_CORS_HEADERS);
        }
        done();
      },
    );
  }

  // The preflight never reaches Nest, hence never the rate limit.
  fastify.route({
    method: 'OPTIONS',
    url: SUBMIT_ROUTE,
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
}
