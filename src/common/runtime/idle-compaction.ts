// Gives back the memory a busy spell left behind, once the process is idle again
// (docs/performance.md, "A long day under load").
//
// Under load V8 grows its old generation to fit the spell's garbage (the worker draining a
// backlog allocates fast, and much of it lives a few scavenges): measured after a drain,
// 60 MiB of heap in use sat in 178 MiB committed, and V8 kept it so, idle, for good — its
// own memory reducer did not give it back within minutes. So every few seconds the event
// loop's utilisation is sampled; after two idle samples in a row, when V8 holds much more
// than it uses and more than after the last compaction, one full collection compacts the
// heap and returns its free pages (the start's collection, start-footprint.ts; on Node 20,
// whose V8 has no last-resort flavour, a full collection, which frees them too). It costs
// one pause of a few tens of ms, taken only when nothing else runs.
import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import { compactCollector } from './start-footprint.js';

/** How often the loop's utilisation and the heap are looked at. */
export const SAMPLE_MS = 5000;
/** Utilisation under which a sample counts as idle. */
export const IDLE_UTILIZATION = 0.05;
/** Idle samples in a row before compacting. */
export const IDLE_SAMPLES = 2;
/** Committed heap beyond what is in use that is worth a compaction, bytes. */
export const SLACK_BYTES = 32 * 1024 * 1024;
/** Growth of the committed heap since the last compaction that is worth another, bytes. */
export const REGROWTH_BYTES = 16 * 1024 * 1024;

export interface HeapSample {
  /** The event loop's utilisation over the sample (0–1). */
  utilization: number;
  /** Heap in use and committed, bytes. */
  used: number;
  committed: number;
}

/** What the compaction knows between samples. */
export interface IdleState {
  idleSamples: number;
  /** Committed heap right after the last compaction (0: none yet). */
  committedAfterLast: number;
}

/** Whether to compact now, and the state after this sample. */
export function afterSample(
  state: IdleState,
  sample: HeapSample,
): { compact: boolean; state: IdleState } {
  const idleSamples =
    sample.utilization < IDLE_UTILIZATION ? state.idleSamples + 1 : 0;
  const compact =
    idleSamples >= IDLE_SAMPLES &&
    sample.committed - sample.used >= SLACK_BYTES &&
    sample.committed >= state.committedAfterLast + REGROWTH_BYTES;
  return { compact, state: { ...state, idleSamples } };
}

/** Starts the sampling (an unref'd timer); answers a function that stops it. */
export function startIdleCompaction(
  collect: () => void = compactCollector(),
): () => void {
  let state: IdleState = { idleSamples: 0, committedAfterLast: 0 };
  let last: EventLoopUtilization = performance.eventLoopUtilization();
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const heap = getHeapStatistics();
    const next = afterSample(state, {
      utilization: performance.eventLoopUtilization(now, last).utilization,
      used: heap.used_heap_size,
      committed: heap.total_heap_size,
    });
    state = next.state;
    if (next.compact) {
      collect();
      state = {
        idleSamples: 0,
        committedAfterLast: getHeapStatistics().total_heap_size,
      };
    }
    // The collection's own time is not counted against the next sample.
    last = performance.eventLoopUtilization();
  }, SAMPLE_MS);
  timer.unref();
  return () => clearInterval(timer);
}
