import type { DatabaseStateService } from '../common/database/database-state.service.js';
import type { AppConfig } from '../config/app-config.js';
import type { Sweep, SweepCounts } from './sweep.js';
import {
  describeCounts,
  FIRST_SWEEP_DELAY_MS,
  SweepsFailedError,
  SweepsService,
} from './sweeps.service.js';

function service(
  intervalSeconds = 300,
  options: { scheduled?: boolean; connected?: boolean } = {},
): SweepsService {
  const config = { sweepIntervalSeconds: intervalSeconds } as AppConfig;
  const database = {
    isConnected: options.connected ?? true,
  } as DatabaseStateService;
  return new SweepsService(config, database, options.scheduled ?? true);
}

function sweep(name: string, run: () => Promise<SweepCounts>): Sweep {
  return { name, run };
}

describe('SweepsService', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs every registered sweep and answers what each deleted, by name', async () => {
    const sweeps = service();
    sweeps.register(sweep('a', () => Promise.resolve({ rows: 2 })));
    sweeps.register(sweep('b', () => Promise.resolve({ files: 0 })));
    expect(sweeps.names).toEqual(['a', 'b']);
    await expect(sweeps.runAll()).resolves.toEqual({
      a: { rows: 2 },
      b: { files: 0 },
    });
  });

  it('refuses two sweeps of one name', () => {
    const sweeps = service();
    sweeps.register(sweep('a', () => Promise.resolve({})));
    expect(() =>
      sweeps.register(sweep('a', () => Promise.resolve({}))),
    ).toThrow(/already registered/);
  });

  it('runs the others when one fails, then reports the failure', async () => {
    const sweeps = service();
    const ran: string[] = [];
    sweeps.register(sweep('bad', () => Promise.reject(new Error('gone'))));
    sweeps.register(
      sweep('good', () => {
        ran.push('good');
        return Promise.resolve({ rows: 1 });
      }),
    );
    const failed = await sweeps.runAll().catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(SweepsFailedError);
    expect((failed as SweepsFailedError).failures.bad.message).toBe('gone');
    expect(ran).toEqual(['good']);
  });

  it('never runs two runs at once', async () => {
    const sweeps = service();
    let running = 0;
    let most = 0;
    sweeps.register(
      sweep('slow', async () => {
        running++;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running--;
        return { rows: 1 };
      }),
    );
    await Promise.all([sweeps.runAll(), sweeps.runAll(), sweeps.runAll()]);
    expect(most).toBe(1);
  });

  it('runs shortly after start, then every interval, until shutdown', async () => {
    vi.useFakeTimers();
    const sweeps = service(60);
    let runs = 0;
    sweeps.register(
      sweep('count', () => {
        runs++;
        return Promise.resolve({ rows: 0 });
      }),
    );
    sweeps.onApplicationBootstrap();
    await vi.advanceTimersByTimeAsync(FIRST_SWEEP_DELAY_MS - 1);
    expect(runs).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toBe(1);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(runs).toBe(2);
    await sweeps.beforeApplicationShutdown();
    await vi.advanceTimersByTimeAsync(600_000);
    expect(runs).toBe(2);
  });

  it('waits for the database before its first run', async () => {
    vi.useFakeTimers();
    const state = { isConnected: false };
    const sweeps = new SweepsService(
      { sweepIntervalSeconds: 300 } as AppConfig,
      state as DatabaseStateService,
      true,
    );
    let runs = 0;
    sweeps.register(
      sweep('count', () => {
        runs++;
        return Promise.resolve({});
      }),
    );
    sweeps.onApplicationBootstrap();
    await vi.advanceTimersByTimeAsync(FIRST_SWEEP_DELAY_MS * 3);
    expect(runs).toBe(0);
    state.isConnected = true;
    await vi.advanceTimersByTimeAsync(FIRST_SWEEP_DELAY_MS);
    expect(runs).toBe(1);
    await sweeps.beforeApplicationShutdown();
  });

  it('runs nothing on its own with an interval of 0 or in a process that does not schedule', async () => {
    vi.useFakeTimers();
    for (const sweeps of [service(0), service(300, { scheduled: false })]) {
      let runs = 0;
      sweeps.register(
        sweep('count', () => {
          runs++;
          return Promise.resolve({});
        }),
      );
      sweeps.onApplicationBootstrap();
      await vi.advanceTimersByTimeAsync(3_600_000);
      expect(runs).toBe(0);
      await expect(sweeps.runAll()).resolves.toEqual({ count: {} });
    }
  });

  it('hands a running sweep the shutdown signal, and shutdown waits for it', async () => {
    const sweeps = service();
    let sawAbort = false;
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    sweeps.register({
      name: 'long',
      run: (signal) =>
        new Promise((resolve) => {
          started();
          signal.addEventListener('abort', () => {
            sawAbort = true;
            resolve({ rows: 1 });
          });
        }),
    });
    const run = sweeps.runAll();
    await running;
    await sweeps.beforeApplicationShutdown();
    expect(sawAbort).toBe(true);
    await expect(run).resolves.toEqual({ long: { rows: 1 } });
  });
});

describe('describeCounts', () => {
  it('names what was deleted, or says nothing was', () => {
    expect(describeCounts({ deliveries: 3, attempts: 6 })).toBe(
      '3 deliveries, 6 attempts',
    );
    expect(describeCounts({ deliveries: 0, attempts: 0 })).toBe('nothing');
  });
});
