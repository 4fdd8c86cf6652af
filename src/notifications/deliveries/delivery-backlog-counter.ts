// formgate_delivery_backlog: what waits to be sent, by channel, counted when metrics are
// scraped (metrics/metrics.ts) from a bounded read, in every process with the outbox; and
// the channels whose attempts formgate_deliveries_total counts.
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { Metrics } from '../../metrics/metrics.js';
import { DeliveryRepository } from './delivery.repository.js';
import {
  NOTIFICATION_CHANNELS,
  type NotificationChannel,
} from '../notification-channel.js';

/** Past this many, the backlog is reported as this many: it is a backlog either way. */
export const BACKLOG_CAP = 10_000;

@Injectable()
export class DeliveryBacklogCounter implements OnModuleInit {
  constructor(
    private readonly metrics: Metrics,
    private readonly deliveries: DeliveryRepository,
    @Inject(NOTIFICATION_CHANNELS)
    private readonly channels: readonly NotificationChannel[],
  ) {}

  onModuleInit(): void {
    if (this.metrics.exposed) {
      this.metrics.watchDeliveries(
        this.channels.map(({ name }) => name),
        () => this.count(),
      );
      this.metrics.watchOutbox(() =>
        this.deliveries.eventsWaiting(BACKLOG_CAP),
      );
    }
  }

  /** Deliveries waiting, by channel; every channel named, 0 included. */
  async count(): Promise<Map<string, number>> {
    const counts = new Map<string, number>(
      this.channels.map(({ name }) => [name, 0]),
    );
    for (const [channel, waiting] of await this.deliveries.backlogCounts(
      BACKLOG_CAP,
    )) {
      counts.set(channel, waiting);
    }
    return counts;
  }
}
