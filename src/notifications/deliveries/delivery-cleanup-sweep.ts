// Deleting deliveries with their attempts: those older than DELIVERY_RETENTION_DAYS (the
// "deliveries" background sweep), and those of a webhook being deleted. Both walk an index
// in small batches (sweeps/batches.ts), so neither stalls the event loop on SQLite nor
// holds long locks on MySQL/MariaDB, however many rows there are. The statements are
// DeliveryRepository's.
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../config/app-config.js';
import { newUlid } from '../../common/values/ulid.js';
import { inBatches, type BatchOptions } from '../../sweeps/batches.js';
import type { SweepCounts } from '../../sweeps/sweep.js';
import { SweepsService } from '../../sweeps/sweeps.service.js';
import { DeliveryRepository } from './delivery.repository.js';

const DAY_MS = 24 * 3600 * 1000;

export interface DeletedDeliveries extends SweepCounts {
  deliveries: number;
  attempts: number;
}

/**
 * The smallest ULID of the millisecond `ms`: every delivery id (a ULID of its creation
 * time) below it was made before `ms`.
 */
export function firstIdAt(ms: number): string {
  return newUlid(ms).slice(0, 10) + '0'.repeat(16);
}

@Injectable()
export class DeliveryCleanupSweep implements OnModuleInit {
  constructor(
    private readonly dataSource: DataSource,
    private readonly deliveries: DeliveryRepository,
    private readonly config: AppConfig,
    private readonly sweeps: SweepsService,
  ) {}

  onModuleInit(): void {
    this.sweeps.register({
      name: 'deliveries',
      run: (signal) => this.deleteExpired(new Date(), signal),
    });
  }

  /**
   * Deletes the deliveries created more than DELIVERY_RETENTION_DAYS before `now`, with
   * their attempts. A delivery's id is a ULID of the time it was made, so the old ones are
   * a range of the primary key, walked in id order; `createdAt` decides each row. One
   * being sent right now (under a live lease) is left for the next run.
   */
  async deleteExpired(
    now: Date,
    signal?: AbortSignal,
  ): Promise<DeletedDeliveries> {
    const cutoff = new Date(
      now.getTime() - this.config.deliveryRetentionDays * DAY_MS,
    );
    const below = firstIdAt(cutoff.getTime());
    const deleted: DeletedDeliveries = { deliveries: 0, attempts: 0 };
    let after = '';
    await inBatches(async (limit) => {
      const rows = await this.deliveries.oldPage(after, below, limit);
      if (rows.length === 0) return 0;
      after = rows[rows.length - 1].id;
      const due = rows
        .filter(
          (row) =>
            row.createdAt < cutoff &&
            (row.leaseUntil === null || row.leaseUntil <= now),
        )
        .map((row) => row.id);
      await this.deleteDeliveries(due, deleted);
      return rows.length;
    }, this.batchOptions(signal));
    return deleted;
  }

  /**
   * Deletes every delivery of a webhook, with its attempts. Called before the webhook's
   * row goes (so a failure leaves a webhook whose deletion can be repeated) and again
   * after (for deliveries made in between).
   */
  async deleteOfWebhook(
    webhookId: string,
    channel: 'webhook' | 'chat' = 'webhook',
  ): Promise<DeletedDeliveries> {
    const deleted: DeletedDeliveries = { deliveries: 0, attempts: 0 };
    await inBatches(async (limit) => {
      const ids = await this.deliveries.webhookPage(webhookId, limit, channel);
      await this.deleteDeliveries(ids, deleted);
      return ids.length;
    }, this.batchOptions());
    return deleted;
  }

  private batchOptions(signal?: AbortSignal): BatchOptions {
    return {
      signal,
      onEventLoop: this.dataSource.options.type === 'better-sqlite3',
    };
  }

  /** One transaction: the attempts of `ids`, then the deliveries. */
  private async deleteDeliveries(
    ids: string[],
    deleted: DeletedDeliveries,
  ): Promise<void> {
    const counts = await this.deliveries.deleteWithAttempts(ids);
    deleted.attempts += counts.attempts;
    deleted.deliveries += counts.deliveries;
  }
}
