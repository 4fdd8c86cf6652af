// The "idempotency" background sweep (docs/sweeps.md): records whose 24 hours (or whose
// in-flight claim) have passed are deleted in batches along the expiry index.
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, In, LessThanOrEqual, Repository } from 'typeorm';
import { inBatches } from '../sweeps/batches.js';
import type { SweepCounts } from '../sweeps/sweep.js';
import { SweepsService } from '../sweeps/sweeps.service.js';
import { IdempotencyRecord } from './idempotency-record.entity.js';

@Injectable()
export class IdempotencySweep implements OnModuleInit {
  constructor(
    private readonly dataSource: DataSource,
    @InjectRepository(IdempotencyRecord)
    private readonly records: Repository<IdempotencyRecord>,
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
        const expired = await this.records.find({
          select: { id: true },
          where: { expiresAt: LessThanOrEqual(expiredAt) },
          order: { expiresAt: 'ASC' },
          take: limit,
        });
        if (expired.length > 0) {
          const result = await this.records.delete({
            id: In(expired.map((record) => record.id)),
            expiresAt: LessThanOrEqual(expiredAt),
          });
          records += result.affected ?? 0;
        }
        return expired.length;
      },
      {
        signal,
        onEventLoop: this.dataSource.options.type === 'better-sqlite3',
      },
    );
    return { records };
  }
}
