// How fast an owner may make the service send on demand: test events (10 a minute per
// webhook) and retries (60 a minute per form), counted in the shared rate-limit storage
// (Redis when REDIS_URL is set, so every instance spends from one budget). Without them
// one account could queue thousands of POSTs to any public URL in seconds, and fill the
// worker every other account shares.
import { Inject, Injectable } from '@nestjs/common';
import { TooManyRequestsException } from '../common/errors/errors.js';
import {
  RATE_LIMIT_STORAGE,
  type RateLimitStorage,
} from '../rate-limit/rate-limit.storage.js';

export const LIMIT_WINDOW_MS = 60_000;
/** Test events one webhook may be sent per minute. */
export const TESTS_PER_WEBHOOK = 10;
/** Deliveries of one form that may be retried per minute (API and dashboard together). */
export const RETRIES_PER_FORM = 60;

export function tooManyTestsMessage(retryAfter: number): string {
  return `Too many test events: at most ${TESTS_PER_WEBHOOK} a minute per webhook. Retry in ${retryAfter} seconds.`;
}

export function tooManyRetriesMessage(retryAfter: number): string {
  return `Too many retries: at most ${RETRIES_PER_FORM} a minute per form. Retry in ${retryAfter} seconds.`;
}

@Injectable()
export class NotificationLimiter {
  constructor(
    @Inject(RATE_LIMIT_STORAGE) private readonly storage: RateLimitStorage,
  ) {}

  /** Spends one test event of `webhookId`, or throws 429 with Retry-After. */
  async spendTest(webhookId: string): Promise<void> {
    const wait = await this.spend(
      `webhook-test:${webhookId}`,
      TESTS_PER_WEBHOOK,
    );
    if (wait > 0) {
      throw new TooManyRequestsException(tooManyTestsMessage(wait), wait);
    }
  }

  /** Spends one retry of a delivery of `formId`, or throws 429 with Retry-After. */
  async spendRetry(formId: string): Promise<void> {
    const wait = await this.spend(`delivery-retry:${formId}`, RETRIES_PER_FORM);
    if (wait > 0) {
      throw new TooManyRequestsException(tooManyRetriesMessage(wait), wait);
    }
  }

  /** Seconds to wait when the budget is spent, else 0. */
  private async spend(key: string, limit: number): Promise<number> {
    const record = await this.storage.increment(
      key,
      LIMIT_WINDOW_MS,
      limit,
      LIMIT_WINDOW_MS,
      key.slice(0, key.indexOf(':')),
    );
    return record.isBlocked ? Math.max(1, record.timeToBlockExpire) : 0;
  }
}
