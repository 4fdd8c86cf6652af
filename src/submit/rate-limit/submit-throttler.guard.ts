// The submit rate limit: @nestjs/throttler's guard, declared on both submit controllers
// (`/api/submit/:formId` and the Formspree-compatible `/f/:formId`) and counting in the
// service's shared storage (submit-throttler.module.ts). A guard runs after Fastify has
// parsed the body, so the multipart parser reads nothing and the controller reads the body
// only once this guard let the request through (multipart-parser.ts): a client over its
// limit costs what a tiny request does (JSON and form bodies, parsed first, are bounded by
// SUBMIT_BODY_LIMIT). Answers Fastify gives before the guard runs carry the rate-limit
// headers too, read without spending (rate-limit-peek.ts).
import { Injectable, type ExecutionContext } from '@nestjs/common';
import {
  ThrottlerException,
  ThrottlerGuard,
  type ThrottlerOptions,
} from '@nestjs/throttler';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { rateLimitBucket } from '../../rate-limit/client-ip.js';
import type {
  RateLimitStorage,
  ThrottlerStorageRecord,
} from '../../rate-limit/rate-limit.storage.js';
import { RATE_LIMIT_POLICY, RateLimitFields } from './rate-limit.headers.js';

/** The one throttler of the submit routes, as ThrottlerModule is given it. */
export const SUBMIT_THROTTLER = RATE_LIMIT_POLICY;

const KEY_PREFIX = 'submit:';

/** The storage key of a client's submit budget: one for both routes, on every instance. */
export function submitRateLimitKey(ip: string | undefined): string {
  return KEY_PREFIX + rateLimitBucket(ip);
}

export function tooManySubmissionsMessage(
  limit: number,
  windowSeconds: number,
  retryAfterSeconds: number,
): string {
  return `Too many submissions: at most ${limit} per ${windowSeconds} seconds from one address. Retry in ${retryAfterSeconds} seconds.`;
}

/**
 * The throttler of the submit routes. Unlike the stock guard it counts per client bucket
 * (an IPv4 address, an IPv6 /64) in one budget shared by both routes, puts every
 * rate-limit header on every answer it decides (the 429 included, with the IETF fields),
 * and refuses with a sentence saying when to retry.
 */
@Injectable()
export class SubmitThrottlerGuard extends ThrottlerGuard {
  private limit = 0;
  private ttl = 0;
  private windowSeconds = 0;
  private fields = new RateLimitFields(0, 0);
  private storage!: RateLimitStorage;

  override async onModuleInit(): Promise<void> {
    await super.onModuleInit();
    const throttler = this.throttlers.find(
      (named: ThrottlerOptions) => named.name === SUBMIT_THROTTLER,
    );
    if (
      typeof throttler?.limit !== 'number' ||
      typeof throttler.ttl !== 'number'
    ) {
      throw new Error(
        `The "${SUBMIT_THROTTLER}" throttler needs a fixed limit and ttl`,
      );
    }
    this.limit = throttler.limit;
    this.ttl = throttler.ttl;
    this.windowSeconds = Math.ceil(throttler.ttl / 1000);
    this.fields = new RateLimitFields(this.limit, this.windowSeconds);
    // submit-throttler.module.ts hands the throttler the service's own storage.
    this.storage = this.storageService as RateLimitStorage;
  }

  /**
   * Straight to counting: the routes have one throttler, fixed at start and never
   * overridden per route, so the stock guard's metadata lookups and awaits per request
   * are skipped. Counted in memory, the answer is a boolean at once (Nest's guards
   * consumer then takes no turn of the event loop); the promise type is the base class's.
   * The request and reply are read from the context's arguments (switchToHttp() makes
   * three closures on every call).
   */
  override canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.getArgByIndex<FastifyRequest>(0);
    const reply = context.getArgByIndex<FastifyReply>(1);
    const key = this.generateKey(
      context,
      rateLimitBucket(request.ip),
      SUBMIT_THROTTLER,
    );
    const storage = this.storage;
    if (storage.incrementNow !== undefined) {
      return this.decide(
        reply,
        storage.incrementNow(key, this.ttl, this.limit),
      ) as unknown as Promise<boolean>;
    }
    return storage
      .increment(key, this.ttl, this.limit, this.ttl, SUBMIT_THROTTLER)
      .then((record) => this.decide(reply, record));
  }

  /**
   * The key of a client's budget, the same from both controllers (the stock key names the
   * class and handler, which would give each route a budget of its own) and without the
   * stock guard's SHA-256 of it on every request: a bucket is short and holds no secret.
   */
  protected override generateKey(
    _context: ExecutionContext,
    tracker: string,
    _name: string,
  ): string {
    return KEY_PREFIX + tracker;
  }

  /** The headers on the reply, then on its way, or 429 (thrown, answered by the filter). */
  private decide(reply: FastifyReply, record: ThrottlerStorageRecord): boolean {
    const resetSeconds = record.isBlocked
      ? record.timeToBlockExpire
      : record.timeToExpire;
    this.fields.write(
      reply,
      this.limit - record.totalHits,
      resetSeconds,
      record.isBlocked,
    );
    if (record.isBlocked) {
      throw new ThrottlerException(
        tooManySubmissionsMessage(this.limit, this.windowSeconds, resetSeconds),
      );
    }
    return true;
  }
}
