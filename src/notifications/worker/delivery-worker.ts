// The notification worker: claims due deliveries under a lease, hands each to its channel,
// records the attempt, and schedules a retry or gives up. It runs in every app process
// unless WORKER_ENABLED=false, and alone through `npm run worker` (src/worker.ts).
//
// A pipeline: deliveries are claimed in batches a little ahead of the free send slots, with
// what their attempts need read in one go (submissions, webhooks, recipients), so a slot that
// frees starts the next send at once; a finished send gives its slot back before its attempt
// is recorded (records are committed in groups). In a process that also takes submissions,
// the worker steps back to one batch every half second while the process is saturated by
// them, or takes them faster than a burst's rate (submission-pressure.ts): the deliveries
// wait in the outbox and leave when the burst is over.
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
  type ChannelItem,
  type NotificationChannel,
  type PreparedAttempt,
} from '../notification-channel.js';
import { parsePayload } from '../outbox.js';
import { nextStep } from './backoff.js';
import { DeliveryStore } from './delivery-store.js';
import { SubmissionPressure } from './submission-pressure.js';

/** Longest the worker sleeps before looking for due deliveries again. */
export const POLL_MS = 1000;
/** How often the leases of deliveries being sent are extended. */
const RENEW_MS = 3000;
/** Longest shutdown waits for sends in flight (a send gives up after 10 s). */
const DRAIN_MS = 12_000;
/** How often the worker looks at how busy its process is. */
const PRESSURE_SAMPLE_MS = 250;
/** Deliveries held (being sent or claimed ahead), as a multiple of the send slots. */
const CLAIM_AHEAD = 4;
/**
 * While the process is saturated, the worker claims one batch (its concurrency) this often
 * and holds nothing ahead: a claim and its records are a few commits (on SQLite, fsyncs on
 * the event loop), paid twice a second rather than for every send.
 */
const STEP_BACK_MS = 500;

interface Ready {
  delivery: Delivery;
  attempt: PreparedAttempt;
}

function failed(error: string): AttemptOutcome {
  return { ok: false, statusCode: null, error, durationMs: 0 };
}

@Injectable()
export class DeliveryWorker
  implements OnApplicationBootstrap, BeforeApplicationShutdown
{
  private readonly logger = new Logger('DeliveryWorker');
  /** Who holds a lease: unique per process and start. */
  readonly owner = `${hostname().slice(0, 30)}:${process.pid}:${randomUUID().slice(0, 8)}`;
  /** Claimed and prepared, waiting for a send slot. */
  private readonly ready: Ready[] = [];
  /** Being sent. */
  private readonly sending = new Map<string, Promise<void>>();
  /** Sent, their attempt being recorded. */
  private readonly recording = new Map<string, Promise<void>>();
  private readonly stopping = new AbortController();
  private running = false;
  private loopDone: Promise<void> | undefined;
  private wakeUp: (() => void) | undefined;
  private woken = false;
  private timers: NodeJS.Timeout[] = [];
  private unsubscribe: (() => void) | undefined;
  private readonly channels: Map<string, NotificationChannel>;
  /** The process is saturated by submissions: one batch every STEP_BACK_MS. */
  private steppingBack = false;
  private lastClaimAt = 0;
  private readonly pressure: SubmissionPressure;

  constructor(
    private readonly store: DeliveryStore,
    private readonly config: AppConfig,
    private readonly database: DatabaseStateService,
    private readonly signal: DeliverySignal,
    @Inject(NOTIFICATION_CHANNELS) channels: NotificationChannel[],
  ) {
    this.channels = new Map(channels.map((c) => [c.name, c]));
    this.pressure = new SubmissionPressure(signal);
  }

  onApplicationBootstrap(): void {
    if (this.config.workerEnabled) this.start();
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.unsubscribe = this.signal.subscribe(() => this.wake());
    this.timers = [
      setInterval(() => void this.renew(), RENEW_MS),
      setInterval(() => this.samplePressure(), PRESSURE_SAMPLE_MS),
    ];
    for (const timer of this.timers) timer.unref();
    this.loopDone = this.loop();
  }

  /**
   * SIGTERM: take nothing new, give back what was claimed but not started, and let the
   * sends in flight finish and be recorded.
   */
  async beforeApplicationShutdown(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.unsubscribe?.();
    this.wake();
    let timer: NodeJS.Timeout | undefined;
    const drained = (async () => {
      await this.loopDone;
      await this.releaseReady();
      await Promise.allSettled(this.sending.values());
      await Promise.allSettled(this.recording.values());
    })();
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), DRAIN_MS);
    });
    if ((await Promise.race([drained, late])) === 'late') {
      // Sends still open are cut; their leases expire and another worker takes them.
      this.stopping.abort();
      await drained;
    }
    clearTimeout(timer);
    for (const interval of this.timers) clearInterval(interval);
  }

  /** Deliveries being sent right now (tests, diagnostics). */
  get busy(): number {
    return this.sending.size;
  }

  private samplePressure(): void {
    const steppingBack = this.pressure.sample();
    if (steppingBack === this.steppingBack) return;
    this.steppingBack = steppingBack;
    if (!steppingBack) {
      this.pump();
      this.wake();
    }
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
      // Up to three rounds of sends wait ready; claim more once fewer than two do, so a
      // claim's round trips overlap the sends instead of leaving slots idle.
      const slots = this.config.workerConcurrency;
      if (this.steppingBack) {
        const rest = this.lastClaimAt + STEP_BACK_MS - Date.now();
        if (rest > 0) {
          await this.sleep(rest);
          continue;
        }
      }
      const held = this.ready.length + this.sending.size;
      const wanted = (this.steppingBack ? 1 : CLAIM_AHEAD) * slots - held;
      let claimed = 0;
      if (
        wanted > 0 &&
        this.ready.length < 2 * slots &&
        this.database.isConnected
      ) {
        this.lastClaimAt = Date.now();
        try {
          claimed = await this.claim(wanted);
        } catch (error) {
          this.logger.warn(
            `Cannot claim deliveries: ${(error as Error).message}`,
          );
        }
      }
      this.pump();
      // A full claim means more may be due: look again at once.
      if (claimed > 0 && claimed === wanted) continue;
      await this.sleep(POLL_MS);
    }
  }

  /** Claims up to `limit` due deliveries and prepares their attempts; how many it took. */
  private async claim(limit: number): Promise<number> {
    const claimed = await this.store.claim(this.owner, limit);
    if (claimed.length === 0) return 0;
    try {
      const attempts = await this.prepare(claimed);
      claimed.forEach((delivery, i) =>
        this.ready.push({ delivery, attempt: attempts[i] }),
      );
    } catch (error) {
      await this.store
        .release(
          this.owner,
          claimed.map((delivery) => delivery.id),
        )
        .catch(() => undefined);
      throw error;
    }
    return claimed.length;
  }

  private async prepare(claimed: Delivery[]): Promise<PreparedAttempt[]> {
    const notices = await this.store.notices(
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
        const outcome = failed(
          `The ${name} channel is not available in this process`,
        );
        for (const i of positions) attempts[i] = () => Promise.resolve(outcome);
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
        const outcome = failed('Internal error while sending');
        return items.map(() => () => Promise.resolve(outcome));
      });
      positions.forEach((position, i) => (attempts[position] = prepared[i]));
    }
    return attempts;
  }

  /** Starts ready deliveries while send slots are free. */
  private pump(): void {
    while (this.running && this.sending.size < this.config.workerConcurrency) {
      const next = this.ready.shift();
      if (next === undefined) return;
      const { id } = next.delivery;
      const work = this.send(next).finally(() => {
        this.sending.delete(id);
        if (!this.running) return;
        this.pump();
        this.wake();
      });
      this.sending.set(id, work);
    }
  }

  private async send({ delivery, attempt }: Ready): Promise<void> {
    let outcome: AttemptOutcome;
    try {
      outcome = await attempt(this.stopping.signal);
    } catch (error) {
      this.logger.error(
        `Delivery ${delivery.id} failed unexpectedly: ${(error as Error).message}`,
        (error as Error).stack,
      );
      outcome = failed('Internal error while sending');
    }
    const recorded = this.record(delivery, outcome)
      .catch((error: Error) =>
        this.logger.error(
          `Delivery ${delivery.id} could not be recorded: ${error.message}`,
          error.stack,
        ),
      )
      .finally(() => this.recording.delete(delivery.id));
    this.recording.set(delivery.id, recorded);
  }

  private async record(
    delivery: Delivery,
    outcome: AttemptOutcome,
  ): Promise<void> {
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

  /** Gives back deliveries claimed but not started: due at once for any worker. */
  private async releaseReady(): Promise<void> {
    const ids = this.ready.splice(0).map(({ delivery }) => delivery.id);
    if (ids.length === 0 || !this.database.isConnected) return;
    try {
      await this.store.release(this.owner, ids);
    } catch (error) {
      this.logger.warn(
        `Cannot give back claimed deliveries: ${(error as Error).message}`,
      );
    }
  }

  private async renew(): Promise<void> {
    const ids = [
      ...this.ready.map(({ delivery }) => delivery.id),
      ...this.sending.keys(),
      ...this.recording.keys(),
    ];
    if (ids.length === 0 || !this.database.isConnected) return;
    try {
      await this.store.renew(this.owner, ids);
    } catch (error) {
      this.logger.warn(`Cannot renew leases: ${(error as Error).message}`);
    }
  }
}
