// Keeps each finished attempt and its delivery's new state. One transaction records at a
// time, and the attempts that end shortly after one another or while it commits are
// recorded together: one commit for many deliveries.
import { newUlid } from '../../common/values/ulid.js';
import type { DeliveryRepository } from '../deliveries/delivery.repository.js';
import type { Delivery } from '../deliveries/delivery.entity.js';
import type { AttemptOutcome } from '../notification-channel.js';
import type { NextStep } from './backoff.js';
import type { DeliveryTelemetryRecorder } from './delivery-telemetry-recorder.js';

/**
 * How long a finished attempt waits for others to be recorded with it: sends started
 * together end within a few milliseconds of each other, and share one commit.
 */
const RECORD_DELAY_MS = 5;
const MAX_ERROR = 500;

interface Finished {
  delivery: Delivery;
  owner: string;
  outcome: AttemptOutcome;
  step: NextStep;
  at: Date;
  resolve: () => void;
  reject: (error: unknown) => void;
}

function clipError(error: string | null): string | null {
  return error === null ? null : error.slice(0, MAX_ERROR);
}

export class AttemptRecorder {
  private finished: Finished[] = [];
  private flushing = false;

  constructor(
    private readonly outbox: DeliveryRepository,
    /** Told of each attempt once it is committed. */
    private readonly telemetry?: DeliveryTelemetryRecorder,
  ) {}

  /** Resolves once the attempt is committed (if `owner` still held the delivery). */
  finish(
    delivery: Delivery,
    owner: string,
    outcome: AttemptOutcome,
    step: NextStep,
    at: Date,
  ): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.finished.push({
        delivery,
        owner,
        outcome,
        step,
        at,
        resolve,
        reject,
      });
      if (!this.flushing && this.finished.length === 1) {
        setTimeout(() => void this.flush(), RECORD_DELAY_MS);
      }
    });
  }

  /** Records what has finished; what finishes meanwhile waits for the next commit. */
  private async flush(): Promise<void> {
    const batch = this.finished;
    this.finished = [];
    if (batch.length === 0) return;
    this.flushing = true;
    try {
      await this.outbox.record(
        batch.map(({ delivery, outcome, at }) => ({
          id: newUlid(at.getTime()),
          deliveryId: delivery.id,
          at,
          statusCode: outcome.statusCode,
          error: clipError(outcome.error),
          durationMs: Math.max(0, Math.round(outcome.durationMs)),
        })),
        batch.map(({ delivery, owner, outcome, step, at }) => ({
          id: delivery.id,
          owner,
          status: step.status,
          nextAttemptAt: step.nextAttemptAt,
          lastStatusCode: outcome.statusCode,
          lastError: clipError(outcome.error),
          lastDurationMs: Math.max(0, Math.round(outcome.durationMs)),
          deliveredAt: outcome.ok ? at : delivery.deliveredAt,
        })),
      );
      for (const { delivery, outcome, step, at, resolve } of batch) {
        this.telemetry?.recorded(delivery, outcome, step, at);
        resolve();
      }
    } catch (error) {
      for (const item of batch) item.reject(error);
    } finally {
      this.flushing = false;
      if (this.finished.length > 0) void this.flush();
    }
  }
}
