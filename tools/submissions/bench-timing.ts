// Timing helpers of bench:export-stall: a request sent at a steady pace while some work
// runs, its latency percentiles, and the server's event-loop stall read from the probe.
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { loadavg } from 'node:os';
import type { LoopStallReading } from './loop-stall-probe.js';

/** One timed request is sent this often, whatever the answers take. */
export const TIMED_EVERY_MS = 20;

export interface Latency {
  count: number;
  failed: number;
  median: number;
  p99: number;
  max: number;
}

export interface PhaseResult {
  /** The request timed during the phase. */
  timed: TimedRequest['name'];
  latency: Latency;
  stall: LoopStallReading;
  seconds: number;
  /** The machine's 1-minute load average at the end: stalls include time the OS gave to others. */
  load: number;
}

export function latency(samples: number[], failed: number): Latency {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) =>
    sorted.length === 0
      ? NaN
      : sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  const round = (n: number) => Math.round(n * 10) / 10;
  return {
    count: sorted.length,
    failed,
    median: round(at(0.5)),
    p99: round(at(0.99)),
    max: round(sorted[sorted.length - 1] ?? NaN),
  };
}

export async function probe(
  child: ChildProcess,
  message: 'loop-stall:reset' | 'loop-stall:read',
): Promise<LoopStallReading | undefined> {
  if (message === 'loop-stall:reset') {
    child.send(message);
    return undefined;
  }
  const answer = once(child, 'message');
  child.send(message);
  const [reply] = (await answer) as [{ loopStall: LoopStallReading }];
  return reply.loopStall;
}

/** What a phase times: a submission (a write) or a health check (no database at all). */
export interface TimedRequest {
  name: 'submit' | 'health check';
  send: () => Promise<Response>;
}

export function submitRequest(url: string): TimedRequest {
  let n = 0;
  return {
    name: 'submit',
    send: () =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          name: `Bench ${n++}`,
          email: 'bench@example.com',
          message: 'Measuring submit latency',
        }),
      }),
  };
}

export function healthRequest(baseUrl: string): TimedRequest {
  return { name: 'health check', send: () => fetch(`${baseUrl}/health/live`) };
}

/**
 * Sends the timed request every TIMED_EVERY_MS (open loop: a slow answer does not delay
 * the next one) until `done` resolves, and records how long each took.
 */
export async function timeWhile(
  timed: TimedRequest,
  done: Promise<unknown>,
): Promise<Latency> {
  const samples: number[] = [];
  let failed = 0;
  const pending = new Set<Promise<void>>();
  let running = true;
  void done.finally(() => {
    running = false;
  });
  while (running) {
    const started = performance.now();
    const sent = timed
      .send()
      .then(async (res) => {
        await res.arrayBuffer();
        if (res.status === 200) samples.push(performance.now() - started);
        else failed++;
      })
      .catch(() => {
        failed++;
      });
    pending.add(sent);
    void sent.finally(() => pending.delete(sent));
    await new Promise((resolve) => setTimeout(resolve, TIMED_EVERY_MS));
  }
  await Promise.all(pending);
  return latency(samples, failed);
}

export async function phase(
  child: ChildProcess,
  timed: TimedRequest,
  work: () => Promise<unknown>,
): Promise<PhaseResult> {
  await probe(child, 'loop-stall:reset');
  const started = performance.now();
  const done = work();
  const latencies = await timeWhile(timed, done);
  await done;
  const stall = (await probe(child, 'loop-stall:read'))!;
  return {
    timed: timed.name,
    latency: latencies,
    stall,
    seconds: Math.round((performance.now() - started) / 100) / 10,
    load: Math.round(loadavg()[0] * 10) / 10,
  };
}
