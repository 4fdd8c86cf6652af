// One autocannon run of the submit benchmark (submit.ts) against a server's submit route,
// and the median of several.
import autocannon from 'autocannon';
import { BODY, type Server } from './submit-servers.js';

/** Connections autocannon keeps open (BENCH_CONNECTIONS, default 32). */
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);

/** A server loaded on a route, with `uniqueHeader` set to a new value on every request. */
export type Target = Server & { uniqueHeader?: string };

/** Every Idempotency-Key this process sends is new. */
let keysSent = 0;
const KEY_PREFIX = `bench-${process.pid}-${Date.now().toString(36)}`;

export interface Run {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

export async function load(server: Target, seconds: number): Promise<Run> {
  const result = await autocannon({
    url: `${server.url}${server.route ?? '/api/submit/'}${server.formId}`,
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      origin: 'https://www.example.com',
      'user-agent': 'Mozilla/5.0 (bench)',
      ...(server.route === '/f/'
        ? { accept: 'application/json', 'formspree-client': 'bench' }
        : {}),
    },
    body: BODY,
    ...(server.uniqueHeader !== undefined
      ? {
          requests: [
            {
              setupRequest: (request: autocannon.Request) => {
                request.headers = {
                  ...request.headers,
                  [server.uniqueHeader!]: `${KEY_PREFIX}-${++keysSent}`,
                };
                return request;
              },
            },
          ],
        }
      : {}),
    connections: CONNECTIONS,
    duration: seconds,
  });
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

export function median(runs: Run[]): Run {
  const sorted = [...runs].sort(
    (a, b) => a.requestsPerSecond - b.requestsPerSecond,
  );
  const middle = sorted[Math.floor(sorted.length / 2)];
  const p99s = runs.map((r) => r.p99).sort((a, b) => a - b);
  const p50s = runs.map((r) => r.p50).sort((a, b) => a - b);
  return {
    requestsPerSecond: middle.requestsPerSecond,
    p50: p50s[Math.floor(p50s.length / 2)],
    p99: p99s[Math.floor(p99s.length / 2)],
    non2xx: runs.reduce((sum, r) => sum + r.non2xx, 0),
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
  };
}
