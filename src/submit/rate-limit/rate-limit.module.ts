import { Module } from '@nestjs/common';
import { ThrottlerModule } from '@nestjs/throttler';
import { AppConfig } from '../../config/app-config.js';
import { RedisRateLimitStorage } from './redis-rate-limit.storage.js';
import {
  MemoryRateLimitStorage,
  RATE_LIMIT_STORAGE,
  type RateLimitStorage,
} from './rate-limit.storage.js';

/** The counters: in Redis when REDIS_URL is set (shared by all instances), else in memory. */
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

/** SUBMIT_RATE_LIMIT requests per SUBMIT_RATE_WINDOW_SECONDS per client, on the submit route. */
export const SubmitThrottlerModule = ThrottlerModule.forRootAsync({
  imports: [RateLimitStorageModule],
  inject: [AppConfig, RATE_LIMIT_STORAGE],
  useFactory: (config: AppConfig, storage: RateLimitStorage) => ({
    throttlers: [
      {
        name: 'submit',
        limit: config.submitRateLimit,
        ttl: config.submitRateWindowSeconds * 1000,
      },
    ],
    storage,
  }),
});
