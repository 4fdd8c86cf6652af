// Notification benchmark (npm run bench:notifications).
//
// Runs the built server on BENCH_DATABASE_URL (default: an SQLite file in a temporary folder;
// e.g. mariadb://root@127.0.0.1:3306/formgate_bench_notify, created afresh) with a webhook to
// a receiver on loopback (WEBHOOK_ALLOW_PRIVATE=true), and measures:
// - latency: submissions one at a time at idle, from the submit's 200 to the receiver's
//   receipt (p50, p95; target: webhook p50 ≤ 10 ms, email p50 < 1 s);
// - drain: BENCH_QUEUED submissions (default 10,000) queued while no worker runs, then one
//   `npm run worker` process (WORKER_CONCURRENCY, default 8) sends them (target ≥ 500/s),
//   beside a raw sender floor in the same run: a bare fetch (undici) loop signing and posting
//   as many webhook-shaped payloads to the same receiver with the same concurrency (target:
//   the worker ≥ 0.5× the floor);
// - submit throughput to a form with one webhook and one confirmed email recipient (mail to an
//   SMTP server on loopback) vs a form without them (autocannon, BENCH_SECONDS per run, in
//   turns a, b, b, a, BENCH_TURNS times (default 2); target ≥ 0.9×), with the worker in the
//   server process (the default) and without it (the outbox alone); latency is measured on
//   that form too, for the webhook and for the message. Each throughput comes with the
//   server process's CPU time per submission (µs, all its threads), which machine noise
//   moves far less than a rate.
// - flood: account A floods its 10 webhooks, all at a receiver answering in ~9.5 s, with
//   `POST …/webhooks/:id/test` (10 per webhook: the most its per-minute limit lets through)
//   and BENCH_FLOOD_SUBMISSIONS submissions (default 50; 10 deliveries each), while account
//   B's submissions, one at a time, go to a fast receiver: B's latency from the submit's 200
//   to the receipt (p50, p95, max; target p95 < 2 s). BENCH_ONLY=flood runs this alone,
//   BENCH_ONLY=standard all but this.
// - every channel: submit throughput to a form with a webhook, an email recipient, the four
//   chat channels and the autoresponder vs a form with none, both behind the same CAPTCHA
//   (notification-channels.ts; target ≥ 0.9×). BENCH_ONLY=channels runs this alone.
// The webhook receiver and the SMTP server run in a process of their own
// (notification-sinks.ts), not in the load generator's.
// Prints a table and a BENCH_JSON line; the exit code is 1 when a target is missed.
import autocannon from 'autocannon';
import { fork, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer as createHttpServer } from 'node:http';
import { createConnection } from 'mysql2/promise';
import {
  BENCH_SECRET,
  CLI_JS,
  freePort,
  log,
  MAIN_JS,
  procCpuMs,
  ROOT,
  sleep,
} from '../shared/process.js';
import { rawSenderFloor } from './raw-sender.js';
import { everyChannel } from './notification-channels.js';
import type { SinkMessage, SinkState } from './notification-sinks.js';

const env = process.env;
const QUEUED = Number(env.BENCH_QUEUED ?? 10_000);
const LATENCY_SAMPLES = Number(env.BENCH_SAMPLES ?? 50);
const SECONDS = Number(env.BENCH_SECONDS ?? 5);
const TURNS = Number(env.BENCH_TURNS ?? 2);
const CONCURRENCY = env.WORKER_CONCURRENCY ?? '8';
/** Extra Node flags for the draining worker, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`. */
const WORKER_NODE_ARGS = (env.BENCH_WORKER_NODE_ARGS ?? '')
  .split(' ')
  .filter(Boolean);
/** Extra Node flags for the servers, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`. */
const SERVER_NODE_ARGS = (env.BENCH_SERVER_NODE_ARGS ?? '')
  .split(' ')
  .filter(Boolean);
const WORKER_JS = join(ROOT, 'dist/src/worker.js');
const SINKS_JS = fileURLToPath(
  new URL('./notification-sinks.js', import.meta.url),
);
const ONLY = env.BENCH_ONLY;
const FLOOD_SUBMISSIONS = Number(env.BENCH_FLOOD_SUBMISSIONS ?? 50);
const FLOOD_SAMPLES = Number(env.BENCH_FLOOD_SAMPLES ?? 30);
/** How long the flooding account's receiver takes to answer. */
const SLOW_ANSWER_MS = 9500;
const TARGETS = {
  latencyP50Ms: 10,
  mailLatencyP50Ms: 1000,
  drainPerSecond: 500,
  drainRatio: 0.5,
  throughputRatio: 0.9,
  everyChannelRatio: 0.9,
  floodLatencyP95Ms: 2000,
};

/** Absolute ms, comparable with the sinks' process. */
const now = () => performance.timeOrigin + performance.now();

/**
 * The webhook receiver and the SMTP server, in their own process (notification-sinks.ts):
 * waits for their addresses, tells who waits for submission number n when it arrived
 * (absolute ms), and reads their counts.
 */
async function startSinks() {
  const child = fork(SINKS_JS, [], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const waiting = new Map<string, (at: number) => void>();
  const states: Array<(state: SinkState) => void> = [];
  let ready: (message: { hookUrl: string; smtpUrl: string }) => void;
  const listening = new Promise<{ hookUrl: string; smtpUrl: string }>(
    (r) => (ready = r),
  );
  child.on('message', (message: SinkMessage) => {
    if (message.type === 'ready') ready(message);
    else if (message.type === 'state') states.shift()?.(message.state);
    else waiting.get(`${message.channel} ${message.n}`)?.(message.at);
  });
  const { hookUrl, smtpUrl } = await listening;
  return {
    hookUrl,
    smtpUrl,
    arrival: (channel: 'hook' | 'mail', n: string) =>
      new Promise<number>((done) =>
        waiting.set(`${channel} ${n}`, (at) => {
          waiting.delete(`${channel} ${n}`);
          done(at);
        }),
      ),
    state: () =>
      new Promise<SinkState>((done) => {
        states.push(done);
        child.send({ type: 'state' });
      }),
    close: () => stop(child),
  };
}

async function databaseUrl(dir: string): Promise<string> {
  const url = env.BENCH_DATABASE_URL;
  if (!url) return `sqlite:${join(dir, 'bench.sqlite')}`;
  const parsed = new URL(url);
  const name = parsed.pathname.slice(1) || 'formgate_bench_notify';
  const c = await createConnection({
    host: parsed.hostname,
    port: Number(parsed.port || 3306),
    user: decodeURIComponent(parsed.username),
    password: decodeURIComponent(parsed.password),
  });
  await c.query(`DROP DATABASE IF EXISTS \`${name}\``);
  await c.query(
    `CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`,
  );
  await c.end();
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

function serverEnv(db: string, extra: Record<string, string> = {}) {
  return {
    PATH: env.PATH,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    DATABASE_URL: db,
    APP_SECRET: BENCH_SECRET,
    SUBMIT_RATE_LIMIT: '1000000',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    WORKER_CONCURRENCY: CONCURRENCY,
    SMTP_URL: sinks.smtpUrl,
    MAIL_FROM: 'formgate-bench@example.com',
    PUBLIC_URL: 'http://127.0.0.1',
    LOG_LEVEL: 'warn',
    ...extra,
  };
}

async function startServer(db: string, extra: Record<string, string>) {
  const port = await freePort();
  const child = spawn(process.execPath, [...SERVER_NODE_ARGS, MAIN_JS], {
    env: serverEnv(db, { ...extra, PORT: String(port) }),
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i += 1) {
    const ok = await fetch(`${url}/health/ready`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) break;
    if (i > 600) throw new Error('server never became ready');
    await sleep(50);
  }
  return { url, child };
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

async function api(url: string, key: string, body?: unknown) {
  const response = await fetch(url, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status >= 300) {
    throw new Error(`${url}: ${response.status} ${await response.text()}`);
  }
  return (await response.json()) as Record<string, unknown>;
}

async function submit(base: string, formId: string, n: string) {
  const response = await fetch(`${base}/api/submit/${formId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ n, email: 'ada@example.com', message: 'Hello' }),
  });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`submit: ${response.status}`);
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

interface Throughput {
  /** Submissions a second. */
  rate: number;
  /** The server process's CPU time per submission (all its threads), in µs. */
  cpuUs: number;
}

async function throughput(
  server: { url: string; child: ChildProcess },
  formId: string,
): Promise<Throughput> {
  const cpuBefore = procCpuMs(server.child.pid!);
  const result = await autocannon({
    url: `${server.url}/api/submit/${formId}`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ n: 'load', email: 'ada@example.com' }),
    connections: 32,
    duration: SECONDS,
  });
  const cpuMs = procCpuMs(server.child.pid!) - cpuBefore;
  return {
    rate: result.requests.average,
    cpuUs: (cpuMs * 1000) / Math.max(1, result.requests.total),
  };
}

/**
 * Submit throughput to two forms, in turns (a, b, b, a; BENCH_TURNS times), averaged:
 * whatever the first run leaves behind (a grown write-ahead log, a warmer JIT) weighs on
 * both sides alike.
 */
async function sideBySide(
  server: { url: string; child: ChildProcess },
  a: string,
  b: string,
): Promise<[Throughput, Throughput]> {
  const runs = Array.from({ length: TURNS }, () => [a, b, b, a]).flat();
  const results: Throughput[] = [];
  for (const formId of runs) results.push(await throughput(server, formId));
  const mean = (id: string): Throughput => {
    const of = results.filter((_, i) => runs[i] === id);
    const average = (pick: (t: Throughput) => number) =>
      of.reduce((sum, t) => sum + pick(t), 0) / of.length;
    return {
      rate: Math.round(average((t) => t.rate)),
      cpuUs: Math.round(average((t) => t.cpuUs)),
    };
  };
  return [mean(a), mean(b)];
}

/** A new account by the CLI; answers its account API key. */
function createAccountKey(db: string, name: string): string {
  const cli = spawnSync(
    process.execPath,
    [
      CLI_JS,
      'accounts:create',
      '--email',
      `bench-${name}-${Date.now()}@example.com`,
      '--password',
      'bench-password-long-enough-1',
    ],
    { env: serverEnv(db), encoding: 'utf8' },
  );
  if (cli.status !== 0) throw new Error(`cli failed: ${cli.stderr}`);
  return (
    JSON.parse(cli.stdout.trim().split('\n').at(-1)!) as { apiKey: string }
  ).apiKey;
}

/** A webhook receiver that answers every request after SLOW_ANSWER_MS (in this process: it only waits). */
async function startSlowReceiver() {
  let received = 0;
  const server = createHttpServer((req, res) => {
    req.resume();
    received += 1;
    setTimeout(() => res.writeHead(204).end(), SLOW_ANSWER_MS);
  });
  const port = await freePort();
  await new Promise<void>((done) => server.listen(port, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${port}/slow`,
    received: () => received,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/**
 * Account A floods a slow receiver (10 webhooks × 10 tests, plus submissions) while account
 * B submits one at a time to a fast one: how long B waits for each of its deliveries.
 */
async function flood(db: string) {
  const slow = await startSlowReceiver();
  const server = await startServer(db, { WORKER_ENABLED: 'true' });
  try {
    const keyA = createAccountKey(db, 'flooder');
    const keyB = createAccountKey(db, 'neighbour');
    const formA = (
      await api(`${server.url}/api/v1/forms`, keyA, { name: 'A', fields: [] })
    ).id as string;
    const hooksA: string[] = [];
    for (let i = 0; i < 10; i += 1) {
      hooksA.push(
        (
          await api(`${server.url}/api/v1/forms/${formA}/webhooks`, keyA, {
            url: slow.url,
          })
        ).id as string,
      );
    }
    const formB = (
      await api(`${server.url}/api/v1/forms`, keyB, { name: 'B', fields: [] })
    ).id as string;
    await api(`${server.url}/api/v1/forms/${formB}/webhooks`, keyB, {
      url: sinks.hookUrl,
    });

    log(
      `flood: A sends 10 tests to each of its 10 slow webhooks and ${FLOOD_SUBMISSIONS} submissions…`,
    );
    const floodStarted = now();
    let tests = 0;
    for (const hook of hooksA) {
      for (let i = 0; i < 10; i += 1) {
        const response = await fetch(
          `${server.url}/api/v1/forms/${formA}/webhooks/${hook}/test`,
          { method: 'POST', headers: { 'x-api-key': keyA } },
        );
        await response.arrayBuffer();
        if (response.status !== 202) {
          throw new Error(`test: ${response.status}`);
        }
        tests += 1;
      }
    }
    for (let i = 0; i < FLOOD_SUBMISSIONS; i += 1) {
      await submit(server.url, formA, `flood${i}`);
    }
    const floodQueuedMs = now() - floodStarted;
    log(`flood: B submits ${FLOOD_SAMPLES} times, one at a time…`);
    const latencies: number[] = [];
    for (let i = 0; i < FLOOD_SAMPLES; i += 1) {
      const n = `l${900000 + i}`;
      const arrived = sinks.arrival('hook', n);
      await submit(server.url, formB, n);
      const answeredAt = now();
      latencies.push((await arrived) - answeredAt);
      await sleep(200);
    }
    return {
      floodTests: tests,
      floodSubmissions: FLOOD_SUBMISSIONS,
      floodDeliveriesQueued: tests + FLOOD_SUBMISSIONS * hooksA.length,
      floodQueuedMs: Math.round(floodQueuedMs),
      floodSlowRequestsReceived: slow.received(),
      floodLatencyP50Ms: Math.round(percentile(latencies, 0.5) * 10) / 10,
      floodLatencyP95Ms: Math.round(percentile(latencies, 0.95) * 10) / 10,
      floodLatencyMaxMs: Math.round(Math.max(...latencies) * 10) / 10,
    };
  } finally {
    // SIGTERM lets the in-flight slow sends finish; the receiver is closed after.
    await stop(server.child);
    await slow.close();
  }
}

async function standard(db: string) {
  let server = await startServer(db, { WORKER_ENABLED: 'false' });
  const apiKey = createAccountKey(db, 'standard');
  const plain = (
    await api(`${server.url}/api/v1/forms`, apiKey, {
      name: 'No webhook',
      fields: [],
    })
  ).id as string;
  const hooked = (
    await api(`${server.url}/api/v1/forms`, apiKey, {
      name: 'Webhook',
      fields: [],
    })
  ).id as string;
  await api(`${server.url}/api/v1/forms/${hooked}/webhooks`, apiKey, {
    url: sinks.hookUrl,
  });
  // The form with both channels: the recipient confirms the link it is sent first.
  const both = (
    await api(`${server.url}/api/v1/forms`, apiKey, {
      name: 'Webhook and email',
      fields: [],
      notifyEmails: ['owner@example.com'],
    })
  ).id as string;
  await api(`${server.url}/api/v1/forms/${both}/webhooks`, apiKey, {
    url: sinks.hookUrl,
  });
  let links: string[] = [];
  while (links.length === 0) {
    await sleep(20);
    ({ links } = await sinks.state());
  }
  const confirmed = await fetch(`${server.url}/confirm-email/${links[0]}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: '',
  });
  if (confirmed.status !== 200) {
    throw new Error(`confirming the recipient: ${confirmed.status}`);
  }

  log(`queueing ${QUEUED} deliveries (no worker running)…`);
  let next = 0;
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (next < QUEUED) await submit(server.url, hooked, `q${next++}`);
    }),
  );
  log('draining with one worker process…');
  const started = now();
  const worker = spawn(process.execPath, [...WORKER_NODE_ARGS, WORKER_JS], {
    env: serverEnv(db),
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  let received = await sinks.state();
  while (received.hooks < QUEUED) {
    await sleep(20);
    received = await sinks.state();
  }
  const drainSeconds = (received.lastHookAt - received.firstHookAt) / 1000;
  const drainPerSecond = Math.round(QUEUED / drainSeconds);
  const drainWithStartSeconds = (received.lastHookAt - started) / 1000;
  await stop(worker);
  await stop(server.child);
  log(
    'raw sender floor: the same number of signed posts from a bare fetch loop…',
  );
  const rawSenderPerSecond = await rawSenderFloor(
    sinks.hookUrl,
    QUEUED,
    Number(CONCURRENCY),
  );

  server = await startServer(db, { WORKER_ENABLED: 'true' });
  log(`latency: ${LATENCY_SAMPLES} submissions one at a time…`);
  const latencies: number[] = [];
  const mailLatencies: number[] = [];
  for (let i = 0; i < LATENCY_SAMPLES; i += 1) {
    const arrived = sinks.arrival('hook', `l${i}`);
    const mailed = sinks.arrival('mail', `l${i}`);
    await submit(server.url, both, `l${i}`);
    const answeredAt = now();
    latencies.push((await arrived) - answeredAt);
    mailLatencies.push((await mailed) - answeredAt);
    await sleep(50);
  }
  log('submit throughput without and with notifications (worker in process)…');
  const [without, withHook] = await sideBySide(server, plain, both);
  await stop(server.child);
  // The outbox's own cost: the same, with the deliveries left for a worker elsewhere.
  server = await startServer(db, { WORKER_ENABLED: 'false' });
  log(
    'submit throughput without and with notifications (no worker in process)…',
  );
  const [withoutAlone, withHookAlone] = await sideBySide(server, plain, both);
  await stop(server.child);

  return {
    latencyP50Ms: Math.round(percentile(latencies, 0.5) * 10) / 10,
    latencyP95Ms: Math.round(percentile(latencies, 0.95) * 10) / 10,
    mailLatencyP50Ms: Math.round(percentile(mailLatencies, 0.5) * 10) / 10,
    queued: QUEUED,
    workerConcurrency: Number(CONCURRENCY),
    drainPerSecond,
    rawSenderPerSecond,
    drainRatio: Math.round((drainPerSecond / rawSenderPerSecond) * 100) / 100,
    drainWithStartSeconds: Math.round(drainWithStartSeconds * 10) / 10,
    submitPerSecondWithout: without.rate,
    submitPerSecondWithNotifications: withHook.rate,
    throughputRatio: Math.round((withHook.rate / without.rate) * 100) / 100,
    serverCpuUsWithout: without.cpuUs,
    serverCpuUsWithNotifications: withHook.cpuUs,
    submitPerSecondWithoutNoWorker: withoutAlone.rate,
    submitPerSecondWithNotificationsNoWorker: withHookAlone.rate,
    throughputRatioNoWorker:
      Math.round((withHookAlone.rate / withoutAlone.rate) * 100) / 100,
    serverCpuUsWithoutNoWorker: withoutAlone.cpuUs,
    serverCpuUsWithNotificationsNoWorker: withHookAlone.cpuUs,
  };
}

const dir = mkdtempSync(join(tmpdir(), 'formgate-bench-notify-'));
const sinks = await startSinks();
try {
  const db = await databaseUrl(dir);
  const standardResult =
    ONLY === 'flood' || ONLY === 'channels' ? null : await standard(db);
  const floodResult =
    ONLY === 'standard' || ONLY === 'channels' ? null : await flood(db);
  const channelsResult =
    ONLY === 'flood' || ONLY === 'standard'
      ? null
      : await everyChannel({
          seconds: SECONDS,
          turns: TURNS,
          hookUrl: sinks.hookUrl,
          links: async () => (await sinks.state()).links,
          startServer: (extra) => startServer(db, extra),
          stop,
          api,
          accountKey: () => createAccountKey(db, 'channels'),
        });
  const result = {
    database: db.startsWith('sqlite:') ? 'sqlite' : 'mariadb',
    ...standardResult,
    ...floodResult,
    ...channelsResult,
  };
  console.table(result);
  console.log(`BENCH_JSON ${JSON.stringify(result)}`);
  const missed =
    (standardResult !== null &&
      (standardResult.latencyP50Ms > TARGETS.latencyP50Ms ||
        standardResult.mailLatencyP50Ms >= TARGETS.mailLatencyP50Ms ||
        standardResult.drainPerSecond < TARGETS.drainPerSecond ||
        standardResult.drainRatio < TARGETS.drainRatio ||
        standardResult.throughputRatio < TARGETS.throughputRatio)) ||
    (floodResult !== null &&
      floodResult.floodLatencyP95Ms >= TARGETS.floodLatencyP95Ms) ||
    (channelsResult !== null &&
      channelsResult.everyChannelRatio < TARGETS.everyChannelRatio);
  process.exitCode = missed ? 1 : 0;
} finally {
  await sinks.close();
  rmSync(dir, { recursive: true, force: true });
}
