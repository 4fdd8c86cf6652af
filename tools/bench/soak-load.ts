// The load of the soak benchmark (soak.ts): submissions at a fixed rate, open loop (each
// request leaves at its planned time whatever the answers before it do, and its latency is
// counted from that planned time, so a slow answer shows as slow instead of lowering the
// rate), an owner paging the list once a second, and the server's state sampled from
// /proc and its metrics listener.
import { Agent, request } from 'node:http';
import { procStatusMb } from '../shared/process.js';

export interface Submitted {
  /** When the request was planned to leave, ms since the load began. */
  at: number;
  /** From its planned departure to the whole answer, ms. */
  ms: number;
  status: number;
  /** Why no answer came (status 0): the client's error code. */
  error?: string;
}

/** The value at quantile `p` (0–1) of `values` (NaN when empty). */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

// A socket left idle is closed after 4 s, before the server's 10 s keep-alive timeout: a
// request sent on a socket the server is closing that moment would fail (ECONNRESET) for the
// client's reuse, not for anything the server did (well-behaved clients close first too).
const agent = new Agent({ keepAlive: true, maxSockets: 1024, timeout: 4000 });

/** One POST on the shared keep-alive agent: its status (0: no answer, and why). */
function send(
  url: URL,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; error?: string }> {
  return new Promise((done) => {
    const failed = (error: Error & { code?: string }) =>
      done({ status: 0, error: error.code ?? error.message });
    const req = request(
      url,
      { method: 'POST', headers, agent, timeout: 10_000 },
      (res) => {
        res.resume();
        res.on('end', () => done({ status: res.statusCode ?? 0 }));
        res.on('error', failed);
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', failed);
    req.end(body);
  });
}

/**
 * Sends `rate` submissions a second for `seconds`, each to the form `pick(i)` answers, with
 * `n` = soak<i>. Resolves with every answer once the last one is in; `lagMs` is how late
 * the sender itself left at worst (the load generator's own stall, counted in the latencies).
 */
export async function pacedLoad(options: {
  base: string;
  rate: number;
  seconds: number;
  pick: (i: number) => string;
  onAnswer?: (result: Submitted, formId: string) => void;
}): Promise<{ results: Submitted[]; lagMs: number }> {
  const { base, rate, seconds, pick } = options;
  const total = Math.round(rate * seconds);
  const results: Submitted[] = [];
  const pending: Promise<void>[] = [];
  let lagMs = 0;
  let next = 0;
  const started = performance.now();
  await new Promise<void>((finished) => {
    const tick = () => {
      const now = performance.now() - started;
      while (next < total && (next * 1000) / rate <= now) {
        const i = next++;
        const at = (i * 1000) / rate;
        lagMs = Math.max(lagMs, now - at);
        const formId = pick(i);
        const body = JSON.stringify({
          n: `soak${i}`,
          email: 'ada@example.com',
          message: 'Hello! I would like to hear more about your engine.',
        });
        pending.push(
          send(
            new URL(`/api/submit/${formId}`, base),
            {
              'content-type': 'application/json',
              'content-length': String(Buffer.byteLength(body)),
            },
            body,
          ).then(({ status, error }) => {
            const result: Submitted = {
              at,
              ms: performance.now() - started - at,
              status,
              ...(error === undefined ? {} : { error }),
            };
            results.push(result);
            options.onAnswer?.(result, formId);
          }),
        );
      }
      if (next < total) setTimeout(tick, 1);
      else finished();
    };
    tick();
  });
  await Promise.all(pending);
  return { results, lagMs };
}

/** The owner reading the list once a second, a few pages deep, until `stop()`. */
export function ownerPaging(base: string, formId: string, apiKey: string) {
  const latencies: number[] = [];
  let failures = 0;
  let running = true;
  const done = (async () => {
    let cursor: string | undefined;
    let page = 0;
    while (running) {
      const started = performance.now();
      const url = new URL(`/api/v1/forms/${formId}/submissions`, base);
      url.searchParams.set('limit', '25');
      if (cursor !== undefined) url.searchParams.set('cursor', cursor);
      try {
        const response = await fetch(url, {
          headers: { 'x-api-key': apiKey },
        });
        const body = (await response.json()) as { nextCursor?: string | null };
        if (response.status !== 200) failures += 1;
        latencies.push(performance.now() - started);
        page += 1;
        cursor = page < 4 ? (body.nextCursor ?? undefined) : undefined;
        if (cursor === undefined) page = 0;
      } catch {
        failures += 1;
      }
      await new Promise((r) => setTimeout(r, 1000));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await done;
      return { latencies, failures };
    },
  };
}

export type Phase = 'load' | 'drain' | 'idle';

export interface Sample {
  /** ms since the load began. */
  at: number;
  phase: Phase;
  rssMb: number;
  heapUsedMb: number;
  heapTotalMb: number;
  externalMb: number;
  /** The event loop's delay p99 since the previous scrape (prom-client resets it), ms. */
  loopDelayP99Ms: number;
  /** Deliveries waiting (formgate_delivery_backlog, every channel). */
  backlog: number;
}

/** Series named `name` (any labels) in a Prometheus text, summed; NaN when absent. */
export function seriesValue(text: string, name: string): number {
  let sum = NaN;
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const rest = line.slice(name.length);
    if (rest[0] !== ' ' && rest[0] !== '{') continue;
    const value = Number(line.slice(line.lastIndexOf(' ') + 1));
    if (Number.isFinite(value)) sum = (Number.isNaN(sum) ? 0 : sum) + value;
  }
  return sum;
}

/** Samples the server every `everyMs` until `stop()`; `phase()` tags each sample. */
export function sampler(options: {
  pid: number;
  metricsUrl: string;
  everyMs: number;
  startedAt: number;
  phase: () => Phase;
}) {
  const samples: Sample[] = [];
  const mb = (bytes: number) => bytes / 1024 / 1024;
  const take = async () => {
    const text = await fetch(options.metricsUrl)
      .then((r) => r.text())
      .catch(() => '');
    samples.push({
      at: performance.now() - options.startedAt,
      phase: options.phase(),
      rssMb: procStatusMb(options.pid, 'VmRSS'),
      heapUsedMb: mb(seriesValue(text, 'nodejs_heap_size_used_bytes')),
      heapTotalMb: mb(seriesValue(text, 'nodejs_heap_size_total_bytes')),
      externalMb: mb(seriesValue(text, 'nodejs_external_memory_bytes')),
      loopDelayP99Ms:
        seriesValue(text, 'nodejs_eventloop_lag_p99_seconds') * 1000,
      backlog: seriesValue(text, 'formgate_delivery_backlog'),
    });
  };
  let busy: Promise<void> = take();
  const timer = setInterval(() => {
    busy = busy.then(take);
  }, options.everyMs);
  return {
    samples,
    take: () => (busy = busy.then(take)),
    stop: async () => {
      clearInterval(timer);
      await busy;
      return samples;
    },
  };
}
