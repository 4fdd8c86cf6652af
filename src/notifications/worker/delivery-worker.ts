// The notification worker: claims due deliveries under a lease, hands each to its channel,
// records the attempt, and schedules a retry or gives up. It runs in every app process
// unless WORKER_ENABLED=false, and alone through `npm run worker` (src/worker.ts).
import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { AppConfig } from '../../config/app-config.js';
import { DatabaseStateService } from '../../common/database/database-state.service.js';
import { DeliverySignal } from '../delivery-signal.js';
import type { Delivery } from '../delivery.entity.js';
import {
  NOTIFICATION_CHANNELS,
  type AttemptOutcome,
  type NotificationChannel,
} from '../notification-channel.js';
import { parsePayload } from '../outbox.js';
import { nextStep } from './backoff.js';
import { DeliveryStore } from './delivery-store.js';

/** Longest the worker sleeps before looking for due deliveries again. */
export const POLL_MS = 1000;
/** How often the leases of deliveries being sent are extended. */
const RENEW_MS = 3000;
/** Longest shutdown waits for sends in flight (a send gives up after 10 s). */
const DRAIN_MS = 12_000;

@Injectable()
export class DeliveryWorker
  implements OnApplicationBootstrap, BeforeApplicationShutdown
{
  private readonly logger = new Logger('DeliveryWorker');
  /** Who holds a lease: unique per process and start. */
  readonly owner = `${hostname().slice(0, 30)}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly stopping = new AbortController();
  private running = false;
  private loopDone: Promise<void> | undefined;
  private wakeUp: (() => void) | undefined;
  private woken = false;
  private renewTimer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  private readonly channels: Map<string, NotificationChannel>;

  constructor(
    private readonly store: DeliveryStore,
    private readonly config: AppConfig,
    private readonly database: DatabaseStateService,
    private readonly signal: DeliverySignal,
    @Inject(NOTIFICATION_CHANNELS) channels: NotificationChannel[],
  ) {
    this.channels = new Map(channels.map((c) => [c.name, c]));
  }

  onApplicationBootstrap(): void {
    if (this.config.workerEnabled) this.start();
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.unsubscribe = this.signal.subscribe(() => this.wake());
    this.renewTimer = setInterval(() => void this.renew(), RENEW_MS);
    this.renewTimer.unref();
    this.loopDone = this.loop();
  }

  /** SIGTERM: take nothing new, let the sends in flight finish and be recorded. */
  async beforeApplicationShutdown(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.unsubscribe?.();
    this.wake();
    let timer: NodeJS.Timeout | undefined;
    const drained = Promise.all([
      this.loopDone,
      Promise.allSettled(this.inFlight.values()),
    ]);
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), DRAIN_MS);
    });
    if ((await Promise.race([drained, late])) === 'late') {
      // Sends still open are cut; their leases expire and another worker takes them.
      this.stopping.abort();
      await drained;
    }
    clearTimeout(timer);
    clearInterval(this.renewTimer);
  }

  /** Deliveries being sent right now (tests, diagnostics). */
  get busy(): number {
    return this.inFlight.size;
  }

  private wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  private sleep(ms: number): Promise<void> {
    if (this.woken) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wakeUp = () => {
        this.wakeUp = undefined;
        this.woken = false;
        done();
      };
    });
  }

  private async loop(): Promise<void> {
    while (this.running) {
      const free = this.config.workerConcurrency - this.inFlight.size;
      let claimed: Delivery[] = [];
      if (free > 0 && this.database.isConnected) {
        try {
          claimed = await this.store.claim(this.owner, free);
        } catch (error) {
          this.logger.warn(
            `Cannot claim deliveries: ${(error as Error).message}`,
          );
        }
      }
      for (const delivery of claimed) this.launch(delivery);
      // A full claim means more may be due: look again at once, as soon as a slot frees.
      if (claimed.length > 0 && claimed.length === free) {
        if (this.inFlight.size < this.config.workerConcurrency) continue;
      }
      await this.sleep(POLL_MS);
    }
  }

  private launch(delivery: Delivery): void {
    const work = this.deliver(delivery)
      .catch((error: Error) =>
        this.logger.error(
          `Delivery ${delivery.id} could not be recorded: ${error.message}`,
          error.stack,
        ),
      )
      .finally(() => {
        this.inFlight.delete(delivery.id);
        if (this.running) this.wake();
      });
    this.inFlight.set(delivery.id, work);
  }

  private async deliver(delivery: Delivery): Promise<void> {
    const outcome = await this.attempt(delivery);
    const at = new Date();
    const step = nextStep(
      outcome,
      delivery.attempts + 1 - delivery.scheduleStart,
      this.config.webhookRetrySchedule,
      at,
    );
    await this.store.finish(delivery, this.owner, outcome, step, at);
    // A retry due before the next poll (short test schedules) is taken on time.
    const wait = (step.nextAttemptAt?.getTime() ?? Infinity) - Date.now();
    if (wait < POLL_MS) {
      setTimeout(() => this.running && this.wake(), Math.max(0, wait)).unref();
    }
  }

  private async attempt(delivery: Delivery): Promise<AttemptOutcome> {
    const channel = this.channels.get(delivery.channel);
    if (channel === undefined) {
      return {
        ok: false,
        statusCode: null,
        error: `The ${delivery.channel} channel is not available in this process`,
        durationMs: 0,
      };
    }
    try {
      const notice =
        delivery.submissionId === null
          ? null
          : await this.store.notice(delivery.submissionId);
      return await channel.send(
        {
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
        notice,
        this.stopping.signal,
      );
    } catch (error) {
      this.logger.error(
        `Delivery ${delivery.id} failed unexpectedly: ${(error as Error).message}`,
        (error as Error).stack,
      );
      return {
        ok: false,
        statusCode: null,
        error: 'Internal error while sending',
        durationMs: 0,
      };
    }
  }

  private async renew(): Promise<void> {
    if (this.inFlight.size === 0 || !this.database.isConnected) return;
    try {
      await this.store.renew(this.owner, [...this.inFlight.keys()]);
    } catch (error) {
      this.logger.warn(`Cannot renew leases: ${(error as Error).message}`);
    }
  }
}
