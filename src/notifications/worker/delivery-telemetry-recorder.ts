// What the worker tells the operator of each attempt: a `formgate.delivery` span around the
// send (when tracing is on), and once it is recorded formgate_deliveries_total by channel
// and the state it left the delivery in, with the lag of a delivery that got through.
import { Inject, Injectable } from '@nestjs/common';
import { ulidTime } from '../../common/values/ulid.js';
import { Metrics } from '../../metrics/metrics.js';
import { TRACING, type Tracing } from '../../tracing/tracing.js';
import type { Delivery } from '../deliveries/delivery.entity.js';
import type {
  AttemptOutcome,
  PreparedAttempt,
} from '../notification-channel.js';
import type { NextStep } from './backoff.js';

/** From its submission being stored (the delivery being made, for a test) to `at`. */
export function lagSeconds(delivery: Delivery, at: Date): number {
  const stored =
    delivery.submissionId === null ? NaN : ulidTime(delivery.submissionId);
  const from = Number.isNaN(stored) ? delivery.createdAt.getTime() : stored;
  return Math.max(0, at.getTime() - from) / 1000;
}

@Injectable()
export class DeliveryTelemetryRecorder {
  constructor(
    private readonly metrics: Metrics,
    @Inject(TRACING) private readonly tracing: Tracing,
  ) {}

  /** The attempt, in a `formgate.delivery` span when tracing is on. */
  traced(delivery: Delivery, attempt: PreparedAttempt): PreparedAttempt {
    if (!this.tracing.enabled) return attempt;
    return async (signal) => {
      const span = this.tracing.start('formgate.delivery', {
        'formgate.channel': delivery.channel,
      });
      let outcome: AttemptOutcome | undefined;
      try {
        outcome = await attempt(signal);
        return outcome;
      } finally {
        span.end(
          outcome?.statusCode == null
            ? { 'formgate.delivered': outcome?.ok ?? false }
            : {
                'formgate.delivered': outcome.ok,
                'http.response.status_code': outcome.statusCode,
              },
          outcome?.ok !== true,
        );
      }
    };
  }

  /** The attempt is recorded: the delivery is now in `step.status`. */
  recorded(
    delivery: Delivery,
    outcome: AttemptOutcome,
    step: NextStep,
    at: Date,
  ): void {
    this.metrics.deliveryAttempted(
      delivery.channel,
      step.status,
      outcome.ok ? lagSeconds(delivery, at) : undefined,
    );
  }
}
