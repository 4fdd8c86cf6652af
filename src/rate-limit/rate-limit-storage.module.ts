import { Module } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
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
      inject: [AppConfig],
      // The Redis client is loaded only when it is used: a start without Redis stays lighter.
      useFactory: async (config: AppConfig): Promise<RateLimitStorage> => {
        if (!config.redisUrl) return new MemoryRateLimitStorage();
        const { RedisRateLimitStorage } =
          await import('./redis-rate-limit.storage.js');
        return new RedisRateLimitStorage(config.redisUrl);
      },
    },
  ],
  exports: [RATE_LIMIT_STORAGE],
})
export class RateLimitStorageModule {}
