// The "idempotency" background sweep (docs/sweeps.md): records whose 24 hours (or whose
// in-flight claim) have passed are deleted in batches along the expiry index.
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { inBatches } from '../sweeps/batches.js';
import type { SweepCounts } from '../sweeps/sweep.js';
import { SweepsService } from '../sweeps/sweeps.service.js';
import { IdempotencyRecordRepository } from './idempotency-record.repository.js';

@Injectable()
export class IdempotencySweep implements OnModuleInit {
  constructor(
    private readonly records: IdempotencyRecordRepository,
    private readonly sweeps: SweepsService,
  ) {}

  onModuleInit(): void {
    this.sweeps.register({
      name: 'idempotency',
      run: (signal) => this.sweepOnce(Date.now(), signal),
    });
  }

  /** Deletes every record expired at `now`. */
  async sweepOnce(
    now = Date.now(),
    signal?: AbortSignal,
  ): Promise<SweepCounts> {
    const expiredAt = new Date(now);
    let records = 0;
    await inBatches(
      async (limit) => {
        const expired = await this.records.expiredIds(expiredAt, limit);
        if (expired.length > 0) {
          records += await this.records.deleteExpiredIds(expired, expiredAt);
        }
        return expired.length;
      },
      { signal, onEventLoop: this.records.onEventLoop },
    );
    return { records };
  }
}
