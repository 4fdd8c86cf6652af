// The notification worker: expands outbox events into deliveries, claims due deliveries under
// a lease, hands each to its channel, records the attempt, and schedules a retry or gives up.
// It runs in every app process unless WORKER_ENABLED=false, and alone (`npm run worker`).
//
// A pipeline: deliveries are claimed in batches ahead of the free send slots, with what
// their attempts need read in one go, so a freed slot starts the next send at once; a
// finished send gives its slot back before its attempt is recorded (in groups). It is
// shared fairly between accounts (fair-share.ts): claims go round the accounts with due
// deliveries, a slot goes to the next account in turn, one target never has more than two
// sends in flight.
// In a process that also takes submissions, the worker steps back to one batch every half
// second while the process is saturated by them (submission-pressure.ts): the events wait
// in the outbox and are expanded and sent when the burst is over.
import {
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { AppConfig } from '../../config/app-config.js';
import { DatabaseStateService } from '../../common/database/database-state.service.js';
import {
  DeliveryRepository,
  LEASE_MS,
} from '../deliveries/delivery.repository.js';
import { CommitNotifier } from '../deliveries/commit-notifier.js';
import type { Delivery } from '../deliveries/delivery.entity.js';
import type { AttemptOutcome } from '../notification-channel.js';
import { AttemptRecorder } from './attempt-recorder.js';
import { BackgroundExpansion } from './background-expansion.js';
import { DeliveryTelemetryRecorder } from './delivery-telemetry-recorder.js';
import { nextStep } from './backoff.js';
import {
  DeliveryAttemptBuilder,
  failedOutcome,
  type Ready,
} from './delivery-attempt-builder.js';
import type { DueGroup } from '../deliveries/delivery-rows.js';
import { nextSend, planClaim } from './fair-share.js';
import { OutboxExpansionService } from './outbox-expansion.service.js';
import { LeaseClock } from './lease-clock.js';
import { SendSlots } from './send-slots.js';
import { WakeSignal } from './wake-signal.js';
import { SubmissionPressure } from '../../submissions/submission-pressure.js';

import {
  CLAIM_AHEAD,
  DRAIN_MS,
  POLL_MS,
  PRESSURE_SAMPLE_MS,
  RENEW_MS,
  START_MARGIN_MS,
  STEP_BACK_MS,
} from './worker-timings.js';

@Injectable()
export class DeliveryWorker
  implements OnApplicationBootstrap, BeforeApplicationShutdown
{
  private readonly logger = new Logger('DeliveryWorker');
  /** Who holds a lease: unique per process and start. */
  readonly owner = `${hostname().slice(0, 30)}:${process.pid}:${randomUUID().slice(0, 8)}`;
  /** Claimed and prepared, waiting for a send slot (each account's longest due first). */
  private readonly ready: Ready[] = [];
  /** Being sent. */
  private readonly slots = new SendSlots();
  /** When the leases held run out, as far as this process can be sure. */
  private readonly leases = new LeaseClock(LEASE_MS, START_MARGIN_MS);
  /** Sent, their attempt being recorded. */
  private readonly recording = new Map<string, Promise<void>>();
  private readonly stopping = new AbortController();
  private readonly recorder: AttemptRecorder;
  private running = false;
  private loopDone: Promise<void> | undefined;
  private readonly wakeSignal = new WakeSignal();
  /** New work was committed (an event, a test, a retry) since the last look. */
  private fresh = true;
  private lastLookAt = 0;
  /** The round robins: the account claimed for last, the one that started the last send. */
  private lastClaimed: string | undefined;
  private lastStarted: string | undefined;
  private timers: NodeJS.Timeout[] = [];
  private unsubscribe: (() => void) | undefined;
  /** The process is saturated by submissions: one batch every STEP_BACK_MS. */
  private steppingBack = false;
  private lastClaimAt = 0;
  /** Groups with due deliveries, looked up again on a look, an expansion, a short claim. */
  private dueGroups: DueGroup[] | undefined;
  private groupsSeen = 0;
  private readonly expansion: BackgroundExpansion;
  private readonly pressure: SubmissionPressure;

  constructor(
    private readonly outbox: DeliveryRepository,
    private readonly expander: OutboxExpansionService,
    private readonly preparer: DeliveryAttemptBuilder,
    private readonly config: AppConfig,
    private readonly database: DatabaseStateService,
    private readonly signal: CommitNotifier,
    telemetry: DeliveryTelemetryRecorder,
  ) {
    this.recorder = new AttemptRecorder(outbox, telemetry);
    // An expansion that ends wakes the loop: for the next one, and for what it made.
    this.expansion = new BackgroundExpansion(expander, (made) => {
      if (made) this.forgetGroups();
      this.wakeSignal.wake();
    });
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

  /** SIGTERM: nothing new; claimed but not started goes back; sends finish, are recorded. */
  async beforeApplicationShutdown(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.unsubscribe?.();
    this.wakeSignal.wake();
    let timer: NodeJS.Timeout | undefined;
    const drained = (async () => {
      await this.loopDone;
      await this.releaseReady();
      await Promise.allSettled(this.slots.sends.values());
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
    return this.slots.size;
  }

  private samplePressure(): void {
    const steppingBack = this.pressure.sample();
    if (steppingBack === this.steppingBack) return;
    this.steppingBack = steppingBack;
    if (!steppingBack) {
      this.pump();
      this.wakeSignal.wake();
    }
  }

  private async loop(): Promise<void> {
    while (this.running) {
      const slots = this.config.workerConcurrency;
      if (this.steppingBack) {
        const rest = this.lastClaimAt + STEP_BACK_MS - Date.now();
        if (rest > 0) {
          await this.wakeSignal.sleep(rest);
          continue;
        }
      }
      if (!this.database.isConnected) {
        await this.wakeSignal.sleep(POLL_MS);
        continue;
      }
      // New work, or time for a look: another worker's events and due retries, and an
      // account that has something due while others fill this worker.
      const look = this.fresh || Date.now() - this.lastLookAt >= POLL_MS;
      this.fresh = false;
      if (look) {
        this.lastLookAt = Date.now();
        this.forgetGroups();
      }
      if (look || this.expansion.more) {
        // Beside the sends; waited for when there is nothing else to do.
        const expanding = this.expansion.start(this.steppingBack);
        if (this.ready.length + this.slots.size === 0) await expanding;
      }
      // Up to CLAIM_AHEAD rounds of sends held; claim more once fewer than four rounds
      // wait (a claim's round trips overlap the sends), or at once when the due groups
      // are unknown: an expansion made deliveries, or a claim found less than planned.
      const held = this.ready.length + this.slots.size;
      const depth = (this.steppingBack ? 1 : CLAIM_AHEAD) * slots;
      let full = false;
      const unknown = this.dueGroups === undefined;
      if (unknown || (this.ready.length < 4 * slots && held < depth)) {
        this.lastClaimAt = Date.now();
        try {
          full = await this.claim(depth);
        } catch (error) {
          this.logger.warn(
            `Cannot claim deliveries: ${(error as Error).message}`,
          );
        }
      }
      this.pump();
      // A full claim means more may be due: look again at once.
      if (full) continue;
      await this.wakeSignal.sleep(POLL_MS);
    }
    await this.expansion.running;
  }

  /** New work: look at once. */
  private wake(): void {
    this.fresh = true;
    this.wakeSignal.wake();
  }

  /** The due groups are looked up again at the next claim. */
  private forgetGroups(): void {
    this.dueGroups = undefined;
    this.groupsSeen += 1;
  }

  /** Claims what is fair now (fair-share.ts), prepared; true when all it asked for came. */
  private async claim(depth: number): Promise<boolean> {
    const now = new Date();
    let groups = this.dueGroups;
    if (groups === undefined) {
      const seen = this.groupsSeen;
      groups = await this.outbox.dueGroups(now);
      // Kept unless an expansion made deliveries meanwhile.
      if (seen === this.groupsSeen) this.dueGroups = groups;
    }
    if (groups.length === 0) return false;
    const plan = planClaim(
      groups,
      this.slots.holdings(this.ready.map(({ delivery }) => delivery)),
      {
        held: depth,
        slots: this.config.workerConcurrency,
        fast: (account) => !this.slots.isSlow(account),
      },
      this.lastClaimed,
    );
    if (plan.picks.length === 0) return false;
    const sentAt = Date.now();
    const claimed = await this.outbox.claim(this.owner, plan.picks, now);
    this.lastClaimed = plan.lastAccount;
    const planned = plan.picks.reduce((sum, p) => sum + p.take, 0);
    // A group ran out (or another worker took it): look the groups up again.
    if (claimed.length < planned) this.forgetGroups();
    if (claimed.length === 0) return false;
    this.leases.held(
      claimed.map((delivery) => delivery.id),
      sentAt,
    );
    try {
      this.ready.push(...(await this.preparer.prepare(claimed)));
    } catch (error) {
      for (const delivery of claimed) this.leases.forget(delivery.id);
      await this.outbox
        .release(
          this.owner,
          claimed.map((delivery) => delivery.id),
        )
        .catch(() => undefined);
      throw error;
    }
    return claimed.length === planned;
  }

  /** Starts ready deliveries while a slot is free and one may fairly take it. */
  private pump(): void {
    const slots = this.config.workerConcurrency;
    while (this.running && this.slots.size < slots) {
      const index = nextSend(
        this.ready.map(({ delivery }) => delivery),
        this.slots.sending(),
        slots,
        (account) => this.slots.isSlow(account),
        this.lastStarted,
      );
      if (index < 0) return;
      const [next] = this.ready.splice(index, 1);
      if (!this.leases.canStart(next.delivery.id, Date.now())) {
        // Its lease may have run out while it waited: another worker may send it.
        this.leases.forget(next.delivery.id);
        this.logger.warn(
          `Delivery ${next.delivery.id} not sent: its lease may have run out while it waited`,
        );
        continue;
      }
      this.lastStarted = next.delivery.accountId;
      this.slots.take(
        next.delivery,
        () => this.send(next),
        () => {
          if (!this.running) return;
          this.pump();
          this.wakeSignal.wake();
        },
      );
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
      outcome = failedOutcome('Internal error while sending');
    }
    const recorded = this.record(delivery, outcome)
      .catch((error: Error) =>
        this.logger.error(
          `Delivery ${delivery.id} could not be recorded: ${error.message}`,
          error.stack,
        ),
      )
      .finally(() => {
        this.recording.delete(delivery.id);
        this.leases.forget(delivery.id);
      });
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
    await this.recorder.finish(delivery, this.owner, outcome, step, at);
    // A retry due before the next poll (short test schedules) is taken on time.
    const wait = (step.nextAttemptAt?.getTime() ?? Infinity) - Date.now();
    if (wait < POLL_MS) {
      setTimeout(() => this.running && this.wake(), Math.max(0, wait)).unref();
    }
  }

  /** Gives back deliveries claimed but not started: due at once for any worker. */
  private async releaseReady(): Promise<void> {
    const ids = this.ready.splice(0).map(({ delivery }) => delivery.id);
    for (const id of ids) this.leases.forget(id);
    if (ids.length === 0 || !this.database.isConnected) return;
    try {
      await this.outbox.release(this.owner, ids);
    } catch (error) {
      this.logger.warn(
        `Cannot give back claimed deliveries: ${(error as Error).message}`,
      );
    }
  }

  private async renew(): Promise<void> {
    const sentAt = Date.now();
    // What waits with a lease that may have run out is dropped: another worker may have it.
    for (let i = this.ready.length - 1; i >= 0; i -= 1) {
      const { id } = this.ready[i].delivery;
      if (this.leases.current([id], sentAt).length === 0) {
        this.ready.splice(i, 1);
        this.leases.forget(id);
      }
    }
    const ids = this.leases.current(
      [
        ...this.ready.map(({ delivery }) => delivery.id),
        ...this.slots.sends.keys(),
        ...this.recording.keys(),
      ],
      sentAt,
    );
    if (ids.length === 0 || !this.database.isConnected) return;
    try {
      await this.outbox.renew(this.owner, ids);
      this.leases.held(ids, sentAt);
    } catch (error) {
      this.logger.warn(`Cannot renew leases: ${(error as Error).message}`);
    }
  }
}
