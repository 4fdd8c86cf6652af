// The registry and scheduler of the background sweeps (retention, spam, deliveries, orphan
// files): features register a named sweep when their module starts; every registered sweep
// runs shortly after start and then every SWEEP_INTERVAL_SECONDS, one after another, in
// every server and worker process (docs/sweeps.md). Several processes sweeping the same
// database at once is harmless: each batch deletes what is due when it runs.
import {
  Inject,
  Injectable,
  Logger,
  Optional,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { DatabaseStateService } from '../common/database/database-state.service.js';
import { AppConfig } from '../config/app-config.js';
import { Metrics } from '../metrics/metrics.js';
import type { Sweep, SweepCounts } from './sweep.js';

/** Whether this process runs the sweeps on their schedule (not the CLI's, for one). */
export const SWEEP_SCHEDULE = Symbol('SWEEP_SCHEDULE');

/** The first run waits this long after start (or one interval, when that is shorter). */
export const FIRST_SWEEP_DELAY_MS = 10_000;

export class SweepsFailedError extends Error {
  constructor(readonly failures: Record<string, Error>) {
    super(
      `Sweeps failed: ${Object.entries(failures)
        .map(([name, error]) => `${name} (${error.message})`)
        .join(', ')}`,
    );
  }
}

/** "120 deliveries, 241 attempts", or "nothing". */
export function describeCounts(counts: SweepCounts): string {
  const parts = Object.entries(counts)
    .filter(([, count]) => count > 0)
    .map(([kind, count]) => `${count} ${kind}`);
  return parts.length > 0 ? parts.join(', ') : 'nothing';
}

@Injectable()
export class SweepsService
  implements OnApplicationBootstrap, BeforeApplicationShutdown
{
  private readonly logger = new Logger('Sweeps');
  private readonly sweeps = new Map<string, Sweep>();
  private readonly stopping = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  /** The run in progress (or the last one): runs never overlap. */
  private current: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly config: AppConfig,
    private readonly database: DatabaseStateService,
    @Inject(SWEEP_SCHEDULE) private readonly scheduled: boolean,
    @Optional() private readonly metrics?: Metrics,
  ) {}

  /** Adds a sweep; call it from the registering feature's constructor or onModuleInit. */
  register(sweep: Sweep): void {
    if (this.sweeps.has(sweep.name)) {
      throw new Error(`A sweep named "${sweep.name}" is already registered`);
    }
    this.sweeps.set(sweep.name, sweep);
  }

  /** The registered sweeps' names, in registration order. */
  get names(): string[] {
    return [...this.sweeps.keys()];
  }

  /**
   * Runs every sweep once now (after a run in progress ends) and answers what each
   * deleted, by name. Throws SweepsFailedError, once all have run, if any failed.
   */
  runAll(): Promise<Record<string, SweepCounts>> {
    const run = this.current.then(() => this.runEach());
    this.current = run.catch(() => undefined);
    return run;
  }

  get intervalMs(): number {
    return this.config.sweepIntervalSeconds * 1000;
  }

  onApplicationBootstrap(): void {
    this.metrics?.watchSweeps(this.names);
    if (!this.scheduled || this.intervalMs === 0) return;
    this.schedule(Math.min(FIRST_SWEEP_DELAY_MS, this.intervalMs));
  }

  /** Shutdown: no new run; a run in progress stops after its current batch. */
  async beforeApplicationShutdown(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.stopping.abort();
    await this.current;
  }

  private schedule(delayMs: number): void {
    if (this.stopping.signal.aborted) return;
    this.timer = setTimeout(() => void this.tick(), delayMs);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    if (!this.database.isConnected) {
      // Started while the database is away: the first run waits until it is back.
      this.schedule(Math.min(FIRST_SWEEP_DELAY_MS, this.intervalMs));
      return;
    }
    try {
      await this.runAll();
    } catch {
      // Each failure was logged with its sweep; the next run tries again.
    }
    this.schedule(this.intervalMs);
  }

  private async runEach(): Promise<Record<string, SweepCounts>> {
    const results: Record<string, SweepCounts> = {};
    const failures: Record<string, Error> = {};
    for (const sweep of this.sweeps.values()) {
      if (this.stopping.signal.aborted) break;
      const started = performance.now();
      try {
        const counts = await sweep.run(this.stopping.signal);
        results[sweep.name] = counts;
        this.metrics?.sweepRan(sweep.name, true);
        const ms = Math.round(performance.now() - started);
        const what = describeCounts(counts);
        const line = `Sweep "${sweep.name}" deleted ${what} in ${ms} ms`;
        if (what === 'nothing') this.logger.debug(line);
        else this.logger.log(line);
      } catch (error) {
        const failure =
          error instanceof Error ? error : new Error(String(error));
        failures[sweep.name] = failure;
        this.metrics?.sweepRan(sweep.name, false);
        this.logger.warn(
          `Sweep "${sweep.name}" failed (tried again at the next run): ${failure.message}`,
        );
      }
    }
    if (Object.keys(failures).length > 0) {
      throw new SweepsFailedError(failures);
    }
    return results;
  }
}
