import { Injectable, type ExecutionContext } from '@nestjs/common';
import {
  ThrottlerException,
  ThrottlerGuard,
  type ThrottlerRequest,
} from '@nestjs/throttler';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { rateLimitBucket } from '../../rate-limit/client-ip.js';
import { rateLimitHeaders } from './rate-limit.headers.js';

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

/**
 * The throttler of the submit route. Unlike the stock guard it puts the rate-limit
 * headers on every response (the 429 included), counts per client bucket (IPv4 address,
 * IPv6 /64) rather than per raw address, and refuses with a sentence saying when to retry.
 */
@Injectable()
export class SubmitThrottlerGuard extends ThrottlerGuard {
  /**
   * The submit route has one throttler whose limit and window come from configuration, and
   * no per-route overrides: it goes straight to counting, without the stock guard's
   * metadata lookups on every request.
   */
  override canActivate(context: ExecutionContext): Promise<boolean> {
    const throttler = this.throttlers[0];
    const limit = throttler.limit as number;
    const ttl = throttler.ttl as number;
    return this.handleRequest({
      context,
      limit,
      ttl,
      throttler,
      blockDuration: ttl,
      getTracker: this.commonOptions.getTracker!,
      generateKey: this.commonOptions.generateKey!,
    });
  }

  protected override async handleRequest({
    context,
    limit,
    ttl,
  }: ThrottlerRequest): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const record = await this.storageService.increment(
      submitRateLimitKey(request.ip),
      ttl,
      limit,
      ttl,
      'submit',
    );
    const windowSeconds = Math.ceil(ttl / 1000);
    const resetSeconds = record.isBlocked
      ? record.timeToBlockExpire
      : record.timeToExpire;
    void reply.headers(
      rateLimitHeaders(
        {
          limit,
          windowSeconds,
          remaining: limit - record.totalHits,
          resetSeconds,
        },
        record.isBlocked,
      ),
    );
    if (record.isBlocked) {
      throw new ThrottlerException(
        tooManySubmissionsMessage(limit, windowSeconds, resetSeconds),
      );
    }
    return true;
  }
}
