// Fixed-window hit counters behind every limit of the service (submit, sign-in, sign-up,
// DNS lookups). Both backends (memory and Redis) count the same way, so a limit means
// the same thing on either: a window opens with the first hit of a key and lasts the
// ttl given with that hit.
import type { OnApplicationShutdown } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';

/** What a throttler storage answers for one hit. */
export type ThrottlerStorageRecord = Awaited<
  ReturnType<ThrottlerStorage['increment']>
>;

export const RATE_LIMIT_STORAGE = Symbol('RATE_LIMIT_STORAGE');

/** The state of one bucket without spending anything from it. */
export interface RateLimitSnapshot {
  totalHits: number;
  /** Seconds until the window resets (the whole window when nothing was counted yet). */
  timeToExpire: number;
}

export interface RateLimitStorage extends ThrottlerStorage {
  /**
   * The hit counted at once, where the storage can (in memory): the hot path then takes no
   * turn of the event loop. Without it, `increment` counts.
   */
  incrementNow?(
    key: string,
    ttl: number,
    limit: number,
  ): ThrottlerStorageRecord;
  /** The state of a key without spending a hit (e.g. responses refused before the guard ran). */
  peek(key: string, ttlMs: number): Promise<RateLimitSnapshot>;
  /** Forgets a key, e.g. a client's failed log-ins for an email once it logs in. */
  reset(key: string): Promise<void>;
}

/** The record of a fixed window from its hit count and remaining lifetime. */
export function windowRecord(
  totalHits: number,
  msLeft: number,
  limit: number,
): ThrottlerStorageRecord {
  const timeToExpire = Math.max(1, Math.ceil(msLeft / 1000));
  const isBlocked = totalHits > limit;
  return {
    totalHits,
    timeToExpire,
    isBlocked,
    timeToBlockExpire: isBlocked ? timeToExpire : 0,
  };
}

interface Window {
  hits: number;
  resetAt: number;
}

/** Counters of one instance, used when REDIS_URL is not set. */
export class MemoryRateLimitStorage
  implements RateLimitStorage, OnApplicationShutdown
{
  private readonly windows = new Map<string, Window>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly now: () => number = Date.now,
    sweepEveryMs = 60_000,
  ) {
    // Expired windows are dropped in one pass a minute, so memory follows the number of
    // clients seen in the last window, not since start.
    this.sweeper = setInterval(() => this.sweep(), sweepEveryMs);
    this.sweeper.unref();
  }

  increment(
    key: string,
    ttl: number,
    limit: number,
  ): Promise<ThrottlerStorageRecord> {
    return Promise.resolve(this.incrementNow(key, ttl, limit));
  }

  incrementNow(
    key: string,
    ttl: number,
    limit: number,
  ): ThrottlerStorageRecord {
    const now = this.now();
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { hits: 0, resetAt: now + ttl };
      this.windows.set(key, window);
    }
    window.hits += 1;
    return windowRecord(window.hits, window.resetAt - now, limit);
  }

  peek(key: string, ttlMs: number): Promise<RateLimitSnapshot> {
    const now = this.now();
    const window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      return Promise.resolve({
        totalHits: 0,
        timeToExpire: Math.ceil(ttlMs / 1000),
      });
    }
    return Promise.resolve({
      totalHits: window.hits,
      timeToExpire: Math.max(1, Math.ceil((window.resetAt - now) / 1000)),
    });
  }

  reset(key: string): Promise<void> {
    this.windows.delete(key);
    return Promise.resolve();
  }

  /** Number of live buckets (for tests and diagnostics). */
  get size(): number {
    return this.windows.size;
  }

  sweep(): void {
    const now = this.now();
    for (const [key, window] of this.windows) {
      if (window.resetAt <= now) this.windows.delete(key);
    }
  }

  onApplicationShutdown(): void {
    clearInterval(this.sweeper);
    this.windows.clear();
  }
}
