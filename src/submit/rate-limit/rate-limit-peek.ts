// The rate-limit headers on the answers Fastify gives before the submit guard runs (a body
// too large or malformed, a content type no parser reads, a path under /api/submit the
// route does not have): the client's budget read without spending from it. Only the guard
// counts (submit-throttler.guard.ts); it puts the headers on every answer it decides.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RateLimitStorage } from '../../rate-limit/rate-limit.storage.js';
import { isPublicSubmitUrl } from '../submit-urls.js';
import { RateLimitFields } from './rate-limit.headers.js';
import { submitRateLimitKey } from './submit-throttler.guard.js';

export interface RateLimitPeekOptions {
  limit: number;
  windowSeconds: number;
  storage: RateLimitStorage;
}

/** An onSend hook on `fastify` (the submit routes' instance) for posts the guard did not see. */
export function configureRateLimitPeek(
  fastify: FastifyInstance,
  options: RateLimitPeekOptions,
): void {
  const { limit, windowSeconds, storage } = options;
  const windowMs = windowSeconds * 1000;
  const fields = new RateLimitFields(limit, windowSeconds);
  fastify.addHook(
    'onSend',
    (
      request: FastifyRequest,
      reply: FastifyReply,
      payload: unknown,
      done: (error: null, payload: unknown) => void,
    ) => {
      if (
        request.method !== 'POST' ||
        // Only the guard sets this header before an answer is sent.
        reply.hasHeader('x-ratelimit-limit') ||
        !isPublicSubmitUrl(request.url)
      ) {
        done(null, payload);
        return;
      }
      storage.peek(submitRateLimitKey(request.ip), windowMs).then(
        (snapshot) => {
          fields.write(
            reply,
            limit - snapshot.totalHits,
            snapshot.timeToExpire,
          );
          done(null, payload);
        },
        () => done(null, payload),
      );
    },
  );
}
