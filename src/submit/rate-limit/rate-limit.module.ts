import { ThrottlerModule } from '@nestjs/throttler';
import { AppConfig } from '../../config/app-config.js';
import { RateLimitStorageModule } from '../../rate-limit/rate-limit-storage.module.js';
import {
  RATE_LIMIT_STORAGE,
  type RateLimitStorage,
} from '../../rate-limit/rate-limit.storage.js';

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
