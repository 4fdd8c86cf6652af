import { Module } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { Metrics } from '../metrics/metrics.js';
import {
  MemoryRateLimitStorage,
  RATE_LIMIT_STORAGE,
  type RateLimitStorage,
} from './rate-limit.storage.js';

/**
 * The counters behind every limit (submit, sign-in, sign-up, DNS lookups): in Redis when
 * REDIS_URL is set (shared by all instances), else in memory. One instance per process.
 */
@Module({
  providers: [
    {
      provide: RATE_LIMIT_STORAGE,
      inject: [AppConfig, Metrics],
      // The Redis client is loaded only when it is used: a start without Redis stays lighter.
      useFactory: async (
        config: AppConfig,
        metrics: Metrics,
      ): Promise<RateLimitStorage> => {
        if (!config.redisUrl) return new MemoryRateLimitStorage();
        const { RedisRateLimitStorage } =
          await import('./redis-rate-limit.storage.js');
        const storage = new RedisRateLimitStorage(config.redisUrl);
        // formgate_redis_up: whether the Redis every instance shares answers.
        if (metrics.exposed) metrics.watchRedis(() => storage.ping());
        return storage;
      },
    },
  ],
  exports: [RATE_LIMIT_STORAGE],
})
export class RateLimitStorageModule {}
