// Preloaded into the measured server by bench:export-stall (`node --import <this> main.js`):
// records how late the event loop ran a 5 ms timer, i.e. how long synchronous work held
// it, and attributes the longest stalls: the GC pauses inside each one and the CPU time
// this process used during it (a stall with little CPU is time the OS gave to other
// processes, not work of ours). The benchmark asks over the IPC channel:
// "loop-stall:reset" starts a new measurement, "loop-stall:read" answers with the
// figures since the last reset.
import { readFileSync } from 'node:fs';
import {
  constants,
  monitorEventLoopDelay,
  performance,
  PerformanceObserver,
  type PerformanceEntry,
} from 'node:perf_hooks';

/** One of the longest stalls of a measurement. */
export interface LongStall {
  ms: number;
  /** CPU time (user + system, all threads) the process used during the stall. */
  cpuMs: number;
  /**
   * Linux: the main thread's own CPU time during the stall, and the time it waited in
   * the scheduler's run queue, ready to run while others ran (from its schedstat).
   */
  mainCpuMs?: number;
  runQueueMs?: number;
  /** Time spent in GC pauses that overlap the stall, and their kinds. */
  gcMs: number;
  gc: string;
}

export interface LoopStallReading {
  /** Longest the loop was held, in ms. */
  maxMs: number;
  p99Ms: number;
  meanMs: number;
  /** Longest single GC pause, its kind, and all GC pauses together. */
  gcMaxMs: number;
  gcMaxKind: string;
  gcTotalMs: number;
  gcCount: number;
  /** The longest stalls (at least LONG_STALL_MS), longest first. */
  longStalls: LongStall[];
  /** Stalls of 50 ms or more, and how many of them the server spent mostly off the CPU. */
  over50: number;
  over50OffCpu: number;
}

const histogram = monitorEventLoopDelay({ resolution: 5 });
histogram.enable();

const ms = (ns: number) => Math.round(ns / 1e4) / 100;
const round = (n: number) => Math.round(n * 10) / 10;

const GC_KINDS: Record<number, string> = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'scavenge',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'mark-compact',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak-callbacks',
};
const gcKind = (entry: PerformanceEntry) =>
  GC_KINDS[
    ((entry as { detail?: unknown }).detail as { kind?: number } | undefined)
      ?.kind ?? -1
  ] ?? 'other';

/** Stalls at least this long are attributed. */
const LONG_STALL_MS = 25;
const TICK_MS = 5;
const KEEP = 500;

let gcs: PerformanceEntry[] = [];
let stalls: Array<{
  start: number;
  end: number;
  cpuMs: number;
  mainCpuMs?: number;
  runQueueMs?: number;
}> = [];

/** The main thread's schedstat: ns on the CPU, ns waiting in the run queue. */
const SCHEDSTAT = `/proc/self/task/${process.pid}/schedstat`;
function schedstat(): [number, number] | undefined {
  try {
    const [cpu, wait] = readFileSync(SCHEDSTAT, 'latin1').split(' ');
    return [Number(cpu) / 1e6, Number(wait) / 1e6];
  } catch {
    return undefined;
  }
}

new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    if (gcs.length < 20_000) gcs.push(entry);
  }
}).observe({ entryTypes: ['gc'] });

let lastTick = performance.now();
let lastCpu = process.cpuUsage();
let lastSched = schedstat();
setInterval(() => {
  const now = performance.now();
  const sched = schedstat();
  if (now - lastTick - TICK_MS >= LONG_STALL_MS) {
    const cpu = process.cpuUsage(lastCpu);
    stalls.push({
      start: lastTick,
      end: now,
      cpuMs: (cpu.user + cpu.system) / 1000,
      ...(sched && lastSched
        ? {
            mainCpuMs: sched[0] - lastSched[0],
            runQueueMs: sched[1] - lastSched[1],
          }
        : {}),
    });
    if (stalls.length > KEEP * 2) {
      stalls.sort((a, b) => b.end - b.start - (a.end - a.start));
      stalls = stalls.slice(0, KEEP);
    }
  }
  lastTick = now;
  lastCpu = process.cpuUsage();
  lastSched = sched;
}, TICK_MS).unref();

function reading(): LoopStallReading {
  let gcMax: PerformanceEntry | undefined;
  let gcTotal = 0;
  for (const entry of gcs) {
    gcTotal += entry.duration;
    if (!gcMax || entry.duration > gcMax.duration) gcMax = entry;
  }
  const longStalls = [...stalls]
    .sort((a, b) => b.end - b.start - (a.end - a.start))
    .slice(0, 8)
    .map((stall): LongStall => {
      const inside = gcs.filter(
        (g) =>
          g.startTime < stall.end && g.startTime + g.duration > stall.start,
      );
      return {
        ms: round(stall.end - stall.start - TICK_MS),
        cpuMs: round(stall.cpuMs),
        ...(stall.mainCpuMs === undefined
          ? {}
          : {
              mainCpuMs: round(stall.mainCpuMs),
              runQueueMs: round(stall.runQueueMs ?? 0),
            }),
        gcMs: round(inside.reduce((sum, g) => sum + g.duration, 0)),
        gc: inside
          .map((g) => `${gcKind(g)} ${round(g.duration)}`)
          .slice(0, 6)
          .join(', '),
      };
    });
  const over50 = stalls.filter((s) => s.end - s.start - TICK_MS >= 50);
  return {
    over50: over50.length,
    over50OffCpu: over50.filter((s) => s.cpuMs < (s.end - s.start) / 4).length,
    maxMs: ms(histogram.max),
    p99Ms: ms(histogram.percentile(99)),
    meanMs: ms(histogram.mean),
    gcMaxMs: round(gcMax?.duration ?? 0),
    gcMaxKind: gcMax ? gcKind(gcMax) : '',
    gcTotalMs: round(gcTotal),
    gcCount: gcs.length,
    longStalls,
  };
}

if (process.send) {
  process.channel?.unref();
  // The benchmark may start the server in a session of its own: it goes when the
  // benchmark does, however that ends.
  process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
  process.on('message', (message: unknown) => {
    if (message === 'loop-stall:reset') {
      histogram.reset();
      gcs = [];
      stalls = [];
    } else if (message === 'loop-stall:read') {
      process.send?.({ loopStall: reading() });
    }
  });
}
