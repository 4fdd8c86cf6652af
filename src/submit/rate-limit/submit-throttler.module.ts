import { ThrottlerModule } from '@nestjs/throttler';
import { AppConfig } from '../../config/app-config.js';
import { RateLimitStorageModule } from '../../rate-limit/rate-limit-storage.module.js';
import {
  RATE_LIMIT_STORAGE,
  type RateLimitStorage,
} from '../../rate-limit/rate-limit.storage.js';
import { SUBMIT_THROTTLER } from './submit-throttler.guard.js';

/**
 * SUBMIT_RATE_LIMIT requests per SUBMIT_RATE_WINDOW_SECONDS per client on the submit
 * routes, counted in the service's rate-limit storage: in memory, or in Redis with
 * REDIS_URL (shared by every instance, failing open when Redis does not answer).
 */
export const SubmitThrottlerModule = ThrottlerModule.forRootAsync({
  imports: [RateLimitStorageModule],
  inject: [AppConfig, RATE_LIMIT_STORAGE],
  useFactory: (config: AppConfig, storage: RateLimitStorage) => ({
    throttlers: [
      {
        name: SUBMIT_THROTTLER,
        limit: config.submitRateLimit,
        ttl: config.submitRateWindowSeconds * 1000,
      },
    ],
    storage,
  }),
});
