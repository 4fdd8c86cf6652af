// Rate-limit counters in Redis, shared by every instance (REDIS_URL). Each hit is one
// atomic Lua call (INCR, then PEXPIRE when the window is new). Redis is optional at run
// time: when it cannot answer within a short timeout the limit fails open (the request
// is served), a warning is logged once per outage, and counting resumes by itself.
import {
  Logger,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { Redis } from 'ioredis';
import { once } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import {
  windowRecord,
  type RateLimitSnapshot,
  type RateLimitStorage,
  type ThrottlerStorageRecord,
} from './rate-limit.storage.js';

/** Longest a request waits on Redis before being served without a limit. */
export const REDIS_TIMEOUT_MS = 500;
const KEY_PREFIX = 'formgate:ratelimit:';

const HIT_SCRIPT = `
local hits = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {hits, ttl}`;

const PEEK_SCRIPT = `
local hits = redis.call('GET', KEYS[1])
if not hits then return {0, -2} end
return {tonumber(hits), redis.call('PTTL', KEYS[1])}`;

type ScriptedRedis = Redis & {
  rateLimitHit(key: string, ttlMs: number): Promise<[number, number]>;
  rateLimitPeek(key: string): Promise<[number, number]>;
};

export class RedisRateLimitStorage
  implements RateLimitStorage, OnModuleInit, OnApplicationShutdown
{
  private readonly logger = new Logger('RateLimit');
  private readonly client: ScriptedRedis;
  private available = true;
  private closing = false;
  private started: Promise<void> | undefined;
  private stopped: Promise<void> | undefined;

  /**
   * `url` may carry ioredis options as query parameters, e.g.
   * `redis://host:6379/0?keyPrefix=site-a:` to share one Redis between installations.
   */
  constructor(url: string) {
    this.client = new Redis(url, {
      // Connected once the app has been put together (onModuleInit): while the modules are
      // being built the event loop is busy, and a connection begun then could miss its
      // deadline on a loaded machine and be taken for Redis being away.
      lazyConnect: true,
      // Never queue commands while disconnected and never retry one: fail fast instead.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: REDIS_TIMEOUT_MS,
      commandTimeout: REDIS_TIMEOUT_MS,
      // Keep reconnecting in the background for as long as the process lives.
      retryStrategy: (attempt) => Math.min(100 * 2 ** attempt, 2000),
    }) as ScriptedRedis;
    this.client.defineCommand('rateLimitHit', {
      numberOfKeys: 1,
      lua: HIT_SCRIPT,
    });
    this.client.defineCommand('rateLimitPeek', {
      numberOfKeys: 1,
      lua: PEEK_SCRIPT,
    });
    this.client.on('error', (error: Error) => this.markDown(error));
    this.client.on('ready', () => this.markUp());
  }

  /**
   * Gives the first connection a moment, so the first requests are counted too. Nest calls
   * this (and onApplicationShutdown) once per module that provides the storage — its own
   * and ThrottlerModule, which hands it to the submit guard — so it waits once.
   */
  onModuleInit(): Promise<void> {
    this.started ??= this.firstConnection();
    return this.started;
  }

  onApplicationShutdown(): Promise<void> {
    this.stopped ??= this.close();
    return this.stopped;
  }

  private async firstConnection(): Promise<void> {
    // A failed attempt is logged by the error handler; reconnecting goes on by itself.
    this.client.connect().catch(() => undefined);
    const ac = new AbortController();
    await Promise.race([
      once(this.client, 'ready', { signal: ac.signal }).catch(() => undefined),
      delay(1000, undefined, { signal: ac.signal }).catch(() => undefined),
    ]);
    ac.abort();
  }

  async increment(
    key: string,
    ttl: number,
    limit: number,
  ): Promise<ThrottlerStorageRecord> {
    try {
      const [hits, msLeft] = await this.client.rateLimitHit(
        KEY_PREFIX + key,
        ttl,
      );
      this.markUp();
      return windowRecord(Number(hits), Number(msLeft), limit);
    } catch (error) {
      this.markDown(error);
      // Fail open: the request is served as if it were the first of its window.
      return windowRecord(0, ttl, limit);
    }
  }

  async peek(key: string, ttlMs: number): Promise<RateLimitSnapshot> {
    try {
      const [hits, msLeft] = await this.client.rateLimitPeek(KEY_PREFIX + key);
      this.markUp();
      const { totalHits, timeToExpire } = windowRecord(
        Number(hits),
        Number(msLeft) > 0 ? Number(msLeft) : ttlMs,
        Number.MAX_SAFE_INTEGER,
      );
      return { totalHits, timeToExpire };
    } catch (error) {
      this.markDown(error);
      return { totalHits: 0, timeToExpire: Math.ceil(ttlMs / 1000) };
    }
  }

  async reset(key: string): Promise<void> {
    try {
      await this.client.del(KEY_PREFIX + key);
      this.markUp();
    } catch (error) {
      // The key expires with its window anyway.
      this.markDown(error);
    }
  }

  /** true when Redis answers a PING within REDIS_TIMEOUT_MS. */
  ping(): Promise<boolean> {
    return this.client.ping().then(
      () => true,
      () => false,
    );
  }

  private async close(): Promise<void> {
    this.closing = true;
    const quit = this.client.quit().catch(() => undefined);
    const ac = new AbortController();
    await Promise.race([
      quit,
      delay(1000, undefined, { signal: ac.signal }).catch(() => undefined),
    ]);
    ac.abort();
    this.client.disconnect();
  }

  private markDown(error: unknown): void {
    if (!this.available || this.closing) return;
    this.available = false;
    const reason = error instanceof Error ? error.message : String(error);
    this.logger.warn(
      `Redis is unreachable (${reason}): requests are served without rate limits (submissions, log-ins, DNS lookups) until it returns`,
    );
  }

  private markUp(): void {
    if (this.available) return;
    this.available = true;
    this.logger.log('Redis is reachable again: rate limiting resumed');
  }
}
