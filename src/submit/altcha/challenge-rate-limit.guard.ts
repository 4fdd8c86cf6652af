import {
  Inject,
  Injectable,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { TooManyRequestsException } from '../../common/errors/errors.js';
import { rateLimitBucket } from '../../rate-limit/client-ip.js';
import {
  RATE_LIMIT_STORAGE,
  type RateLimitStorage,
} from '../../rate-limit/rate-limit.storage.js';

/** Challenges one client address may ask for per window (its own budget, not submit's). */
export const CHALLENGE_RATE_LIMIT = 60;
export const CHALLENGE_RATE_WINDOW_MS = 60_000;

export function tooManyChallengesMessage(retryAfterSeconds: number): string {
  return `Too many ALTCHA challenges: at most ${CHALLENGE_RATE_LIMIT} a minute from one address. Retry in ${retryAfterSeconds} seconds.`;
}

/** CHALLENGE_RATE_LIMIT challenges a minute per client (IPv4 address, IPv6 /64). */
@Injectable()
export class ChallengeRateLimitGuard implements CanActivate {
  constructor(
    @Inject(RATE_LIMIT_STORAGE) private readonly storage: RateLimitStorage,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const record = await this.storage.increment(
      `altcha-challenge:${rateLimitBucket(request.ip)}`,
      CHALLENGE_RATE_WINDOW_MS,
      CHALLENGE_RATE_LIMIT,
      CHALLENGE_RATE_WINDOW_MS,
      'altcha-challenge',
    );
    if (record.isBlocked) {
      throw new TooManyRequestsException(
        tooManyChallengesMessage(record.timeToBlockExpire),
        record.timeToBlockExpire,
      );
    }
    return true;
  }
}
