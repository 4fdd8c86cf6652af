import { Module } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { RedisRateLimitStorage } from './redis-rate-limit.storage.js';
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
      useFactory: (config: AppConfig): RateLimitStorage =>
        config.redisUrl
          ? new RedisRateLimitStorage(config.redisUrl)
          : new MemoryRateLimitStorage(),
    },
  ],
  exports: [RATE_LIMIT_STORAGE],
})
export class RateLimitStorageModule {}
