import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { API_POST_INTERCEPTOR } from '../auth/keyed-post.interceptor.js';
import { IdempotencyInterceptor } from './idempotency.interceptor.js';
import { IdempotencyStore } from './idempotency.store.js';
import { IdempotencySweep } from './idempotency-sweep.js';
import { IdempotencyRecord } from './idempotency-record.entity.js';
import { IdempotencyRecordRepository } from './idempotency-record.repository.js';

/**
 * Idempotency-Key records for the submit route and every POST of /api/v1 (global: its
 * interceptor is what ApiKeyAuth's KeyedPostInterceptor runs around every keyed POST).
 */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([IdempotencyRecord])],
  providers: [
    IdempotencyRecordRepository,
    IdempotencyStore,
    IdempotencyInterceptor,
    IdempotencySweep,
    { provide: API_POST_INTERCEPTOR, useExisting: IdempotencyInterceptor },
  ],
  exports: [IdempotencyStore, API_POST_INTERCEPTOR],
})
export class IdempotencyModule {}
