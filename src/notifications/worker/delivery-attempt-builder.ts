// Prepares claimed deliveries for their send slots: what their attempts need is read in
// one go — their submissions, and through each channel's prepare() their webhooks and
// secrets, or their forms and confirmed recipients — so a free slot starts a send at once.
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Delivery } from '../deliveries/delivery.entity.js';
import {
  NOTIFICATION_CHANNELS,
  type AttemptOutcome,
  type ChannelItem,
  type NotificationChannel,
  type PreparedAttempt,
} from '../notification-channel.js';
import { parsePayload } from '../outbox/outbox-entry.js';
import { DeliveryTelemetryRecorder } from './delivery-telemetry-recorder.js';
import { SubmissionNoticeReader } from './submission-notice-reader.js';

/** A claimed delivery with its attempt, waiting for a send slot. */
export interface Ready {
  delivery: Delivery;
  attempt: PreparedAttempt;
}

/** An attempt that failed before anything was sent. */
export function failedOutcome(error: string): AttemptOutcome {
  return { ok: false, statusCode: null, error, durationMs: 0 };
}

function failedWith(error: string): PreparedAttempt {
  const outcome = failedOutcome(error);
  return () => Promise.resolve(outcome);
}

@Injectable()
export class DeliveryAttemptBuilder {
  private readonly logger = new Logger('DeliveryWorker');
  private readonly channels: Map<string, NotificationChannel>;

  constructor(
    private readonly notices: SubmissionNoticeReader,
    @Inject(NOTIFICATION_CHANNELS) channels: NotificationChannel[],
    private readonly telemetry: DeliveryTelemetryRecorder,
  ) {
    this.channels = new Map(channels.map((c) => [c.name, c]));
  }

  /** One ready attempt per delivery, in the same order. */
  async prepare(claimed: readonly Delivery[]): Promise<Ready[]> {
    const notices = await this.notices.of(
      claimed.flatMap((d) => (d.submissionId === null ? [] : [d.submissionId])),
    );
    const attempts: PreparedAttempt[] = [];
    const byChannel = new Map<string, number[]>();
    claimed.forEach((delivery, i) => {
      const positions = byChannel.get(delivery.channel) ?? [];
      positions.push(i);
      byChannel.set(delivery.channel, positions);
    });
    for (const [name, positions] of byChannel) {
      const channel = this.channels.get(name);
      if (channel === undefined) {
        const attempt = failedWith(
          `The ${name} channel is not available in this process`,
        );
        for (const i of positions) attempts[i] = attempt;
        continue;
      }
      const items: ChannelItem[] = positions.map((i) => {
        const delivery = claimed[i];
        return {
          delivery: {
            id: delivery.id,
            formId: delivery.formId,
            channel: delivery.channel,
            target: delivery.target,
            event: delivery.event,
            submissionId: delivery.submissionId,
            attempts: delivery.attempts,
            createdAt: delivery.createdAt,
            payload: parsePayload(delivery.payload),
          },
          submission:
            delivery.submissionId === null
              ? null
              : (notices.get(delivery.submissionId) ?? null),
        };
      });
      const prepared = await channel.prepare(items).catch((error: Error) => {
        this.logger.error(
          `Deliveries could not be prepared: ${error.message}`,
          error.stack,
        );
        return items.map(() => failedWith('Internal error while sending'));
      });
      positions.forEach((position, i) => (attempts[position] = prepared[i]));
    }
    return claimed.map((delivery, i) => ({
      delivery,
      attempt: this.telemetry.traced(delivery, attempts[i]),
    }));
  }
}
