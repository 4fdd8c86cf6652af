// The submit rate limit, decided before the body is read: a Fastify onRequest hook on the
// submit route counts the request and, past SUBMIT_RATE_LIMIT per window, answers 429 at
// once. A guard would run only after Fastify had read and parsed the body, so a client
// over its limit could still make the server parse 100 KB of multipart for every refusal.
// Every response of the route carries the rate-limit headers (set here, or read without
// spending by an onSend hook for a request this hook did not count).
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onRequestHookHandler,
} from 'fastify';
import { rateLimitBucket } from '../../rate-limit/client-ip.js';
import type {
  RateLimitStorage,
  ThrottlerStorageRecord,
} from '../../rate-limit/rate-limit.storage.js';
import { sendSubmitError } from '../submit-answer.js';
import {
  FORM_TYPE,
  JSON_TYPE,
  mediaTypeOf,
  MULTIPART_TYPE,
} from '../submit-navigation.js';
import {
  isPublicSubmitUrl,
  RATE_LIMITED_SUBMIT_ROUTES,
} from '../submit-urls.js';
import { RateLimitFields } from './rate-limit.headers.js';

/** The storage key of a client's submit budget (shared by every instance via Redis). */
export function submitRateLimitKey(ip: string | undefined): string {
  return `submit:${rateLimitBucket(ip)}`;
}

export function tooManySubmissionsMessage(
  limit: number,
  windowSeconds: number,
  retryAfterSeconds: number,
): string {
  return `Too many submissions: at most ${limit} per ${windowSeconds} seconds from one address. Retry in ${retryAfterSeconds} seconds.`;
}

export interface SubmitRateLimitOptions {
  limit: number;
  windowSeconds: number;
  /** Bodies declared larger are refused (413) unread by Fastify, and spend nothing. */
  bodyLimit: number;
  /** Multipart bodies may carry files up to this (refused unread beyond, too). */
  uploadBodyLimit: number;
  storage: RateLimitStorage;
}

/**
 * Whether the request spends from the client's budget: every post but those Fastify
 * refuses from their headers alone, without reading the body — a declared length over
 * the limit (413) or a content type no parser of the route reads (415).
 */
function spends(
  request: FastifyRequest,
  bodyLimit: number,
  uploadBodyLimit: number,
): boolean {
  const type = mediaTypeOf(request.headers['content-type']);
  if (
    type !== undefined &&
    type !== JSON_TYPE &&
    type !== FORM_TYPE &&
    type !== MULTIPART_TYPE
  ) {
    return false;
  }
  const declared = request.headers['content-length'];
  const limit =
    type === MULTIPART_TYPE ? Math.max(bodyLimit, uploadBodyLimit) : bodyLimit;
  return declared === undefined || !(Number(declared) > limit);
}

/**
 * The hook: counts the request per client bucket (an IPv4 address, an IPv6 /64), puts
 * the rate-limit headers on the reply, and answers 429 `{error}` with Retry-After when the
 * client is over its limit. The CORS headers are already on the reply (submit-cors.ts).
 */
export function submitRateLimitHook(
  options: SubmitRateLimitOptions,
): onRequestHookHandler {
  const { limit, windowSeconds, bodyLimit, uploadBodyLimit, storage } = options;
  const ttl = windowSeconds * 1000;
  const fields = new RateLimitFields(limit, windowSeconds);
  /** The answer to a counted request: on its way, or 429. */
  const counted = (
    record: ThrottlerStorageRecord,
    request: FastifyRequest,
    reply: FastifyReply,
    done: (error?: Error) => void,
  ): void => {
    const resetSeconds = record.isBlocked
      ? record.timeToBlockExpire
      : record.timeToExpire;
    fields.write(
      reply,
      limit - record.totalHits,
      resetSeconds,
      record.isBlocked,
    );
    if (!record.isBlocked) {
      done();
      return;
    }
    sendSubmitError(request, reply, {
      status: 429,
      body: {
        error: tooManySubmissionsMessage(limit, windowSeconds, resetSeconds),
      },
      headers: {},
      unexpected: false,
    });
  };
  return function submitRateLimit(
    request: FastifyRequest,
    reply: FastifyReply,
    done: (error?: Error) => void,
  ): void {
    if (!spends(request, bodyLimit, uploadBodyLimit)) {
      done();
      return;
    }
    const key = submitRateLimitKey(request.ip);
    if (storage.incrementNow !== undefined) {
      counted(storage.incrementNow(key, ttl, limit), request, reply, done);
      return;
    }
    storage.increment(key, ttl, limit, ttl, 'submit').then(
      (record) => counted(record, request, reply, done),
      (error: Error) => done(error),
    );
  };
}

/**
 * The rate limit on the submit routes: the hook above handed to each of them as Nest
 * registers it (when the app initialises, after this), so no other request pays for it;
 * and, on an answer to a POST the hook did not count (refused from its headers alone, or
 * an unknown path under /api/submit), the client's budget read without spending from it.
 */
export function configureSubmitRateLimit(
  fastify: FastifyInstance,
  options: SubmitRateLimitOptions,
): void {
  const { limit, windowSeconds, storage } = options;
  const rateLimit = submitRateLimitHook(options);
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
        // Only the hook above sets this header.
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
