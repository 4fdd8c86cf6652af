// Soak benchmark (npm run bench:soak): a long day under load, shortened.
//
// The built server (dist/src/main.js, the worker in its process as by default, metrics on a
// listener of its own) on BENCH_DATABASE_URL (default: an SQLite file in a temporary folder;
// or e.g. mariadb://root@127.0.0.1:3306/formgate_bench_soak, created afresh) takes
// BENCH_SOAK_RATE submissions a second (default 1200, open loop: a slow answer never lowers
// the offered rate) for BENCH_SOAK_MINUTES (default 5): all but one in BENCH_SOAK_MAIL_EVERY
// (default 50) to a form with a signed webhook, the rest to a form that mails its owner,
// while the owner pages the webhook form's list once a second. The server's RSS (/proc),
// heap, event-loop delay and delivery backlog are sampled every BENCH_SOAK_SAMPLE_SECONDS
// (default 3). Then the drain (until the receivers have every delivery) and
// BENCH_SOAK_IDLE_SECONDS (default 30) idle. Every delivery is counted at its receiver
// (notification-sinks.ts): none may be missing or arrive twice.
//
// Prints the table of issue 47 (per 30 s: submit p50/p99, RSS, heap, event-loop delay p99,
// backlog; the drain; idle) and writes it into docs/performance.md (its section for this
// database, replaced on each run; BENCH_SOAK_WRITE=0 leaves the file alone). Exit 1 when a
// target is missed: nothing lost or twice, every interval's p99 ≤ 2× the first's and
// ≤ 100 ms, RSS drained and idle within +40 MiB of the first minute's.
//
// Diagnosis: BENCH_SERVER_NODE_ARGS adds Node flags to the server (e.g. `--cpu-prof
// --cpu-prof-dir=/tmp/prof`); BENCH_SOAK_HEAP_DIR writes a heap snapshot there at the end
// of the load, after the drain and after the idle period (each stalls the server for
// seconds: figures of such a run are not the soak's). BENCH_SERVER_ENV adds variables to
// the server's environment (`NAME=value NAME2=value`), to compare settings side by side.
import { fork, spawnSync, type ChildProcess } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDatabase } from '../shared/mysql.js';
import {
  BENCH_SECRET,
  CLI_JS,
  freePort,
  log,
  ROOT,
  sleep,
  startServer,
  stopChild,
} from '../shared/process.js';
import type { SinkMessage, SinkState } from './notification-sinks.js';
import {
  ownerPaging,
  pacedLoad,
  percentile,
  sampler,
  type Phase,
} from './soak-load.js';
import {
  INTERVAL_MS,
  intervals,
  missedTargets,
  replaceSection,
  section,
  table,
  type Outcome,
} from './soak-report.js';

const env = process.env;
const MINUTES = Number(env.BENCH_SOAK_MINUTES ?? 5);
const RATE = Number(env.BENCH_SOAK_RATE ?? 1200);
const MAIL_EVERY = Number(env.BENCH_SOAK_MAIL_EVERY ?? 50);
const SAMPLE_MS = Number(env.BENCH_SOAK_SAMPLE_SECONDS ?? 3) * 1000;
const IDLE_MS = Number(env.BENCH_SOAK_IDLE_SECONDS ?? 30) * 1000;
const DRAIN_MAX_MS = Number(env.BENCH_SOAK_DRAIN_MAX_SECONDS ?? 900) * 1000;
const HEAP_DIR = env.BENCH_SOAK_HEAP_DIR;
const NOTE = env.BENCH_SOAK_NOTE ?? '';
const SERVER_NODE_ARGS = (env.BENCH_SERVER_NODE_ARGS ?? '')
  .split(' ')
  .filter(Boolean);
const SERVER_ENV = Object.fromEntries(
  (env.BENCH_SERVER_ENV ?? '')
    .split(' ')
    .filter(Boolean)
    .map((pair) => [
      pair.slice(0, pair.indexOf('=')),
      pair.slice(pair.indexOf('=') + 1),
    ]),
);
const SINKS_JS = fileURLToPath(
  new URL('./notification-sinks.js', import.meta.url),
);
const PERFORMANCE_MD = join(ROOT, 'docs/performance.md');

async function startSinks() {
  const child = fork(SINKS_JS, [], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const states: Array<(state: SinkState) => void> = [];
  const ready = new Promise<{ hookUrl: string; smtpUrl: string }>((done) =>
    child.on('message', (message: SinkMessage) => {
      if (message.type === 'ready') done(message);
      else if (message.type === 'state') states.shift()?.(message.state);
    }),
  );
  return {
    ...(await ready),
    state: () =>
      new Promise<SinkState>((done) => {
        states.push(done);
        child.send({ type: 'state' });
      }),
    close: () => stopChild(child),
  };
}

async function databaseUrl(dir: string): Promise<string> {
  const url = env.BENCH_DATABASE_URL;
  if (!url) return `sqlite:${join(dir, 'soak.sqlite')}`;
  const name = new URL(url).pathname.slice(1) || 'formgate_bench_soak';
  return ensureDatabase(url, name, { recreate: true });
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

/** The account, its webhook form and its mailing form (the recipient confirmed). */
async function prepare(
  base: string,
  serverEnv: NodeJS.ProcessEnv,
  sinks: Awaited<ReturnType<typeof startSinks>>,
) {
  const cli = spawnSync(
    process.execPath,
    [
      CLI_JS,
      'accounts:create',
      '--email',
      `soak-${Date.now()}@example.com`,
      '--password',
      'bench-password-long-enough-1',
    ],
    { env: serverEnv, encoding: 'utf8' },
  );
  if (cli.status !== 0) throw new Error(`cli failed: ${cli.stderr}`);
  const { apiKey } = JSON.parse(cli.stdout.trim().split('\n').at(-1)!) as {
    apiKey: string;
  };
  const forms = `${base}/api/v1/forms`;
  const hooked = (await api(forms, apiKey, { name: 'Webhook', fields: [] }))
    .id as string;
  await api(`${forms}/${hooked}/webhooks`, apiKey, { url: sinks.hookUrl });
  const mailed = (
    await api(forms, apiKey, {
      name: 'Email',
      fields: [],
      notifyEmails: ['owner@example.com'],
    })
  ).id as string;
  let links: string[] = [];
  for (let i = 0; links.length === 0; i += 1) {
    if (i > 500) throw new Error('no confirmation mail arrived');
    await sleep(20);
    ({ links } = await sinks.state());
  }
  const confirmed = await fetch(`${base}/confirm-email/${links[0]}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: '',
  });
  if (confirmed.status !== 200) {
    throw new Error(`confirming the recipient: ${confirmed.status}`);
  }
  return { apiKey, hooked, mailed };
}

/** A heap snapshot of `child` (SIGUSR2), waited for until its file stops growing. */
async function heapSnapshot(child: ChildProcess, label: string) {
  if (HEAP_DIR === undefined) return;
  const before = new Set(readdirSync(HEAP_DIR));
  child.kill('SIGUSR2');
  for (;;) {
    await sleep(1000);
    const made = readdirSync(HEAP_DIR).find(
      (f) => !before.has(f) && f.endsWith('.heapsnapshot'),
    );
    if (made === undefined) continue;
    const size = statSync(join(HEAP_DIR, made)).size;
    await sleep(1000);
    if (statSync(join(HEAP_DIR, made)).size === size && size > 0) {
      log(`heap snapshot ${label}: ${join(HEAP_DIR, made)}`);
      return;
    }
  }
}

const dir = mkdtempSync(join(tmpdir(), 'formgate-bench-soak-'));
const sinks = await startSinks();
try {
  const db = await databaseUrl(dir);
  const database = db.startsWith('sqlite:') ? 'sqlite' : 'mariadb';
  const metricsPort = await freePort();
  const serverEnv: NodeJS.ProcessEnv = {
    DATABASE_URL: db,
    APP_SECRET: BENCH_SECRET,
    SUBMIT_RATE_LIMIT: '1000000',
    SUBMIT_RATE_WINDOW_SECONDS: '10',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    SMTP_URL: sinks.smtpUrl,
    MAIL_FROM: 'formgate-bench@example.com',
    PUBLIC_URL: 'http://127.0.0.1',
    METRICS_PORT: String(metricsPort),
    LOG_LEVEL: env.BENCH_LOG_LEVEL ?? 'warn',
    ...SERVER_ENV,
  };
  if (HEAP_DIR !== undefined) {
    mkdirSync(HEAP_DIR, { recursive: true });
    SERVER_NODE_ARGS.push(
      '--heapsnapshot-signal=SIGUSR2',
      `--diagnostic-dir=${HEAP_DIR}`,
    );
  }
  const server = await startServer({
    env: serverEnv,
    nodeArgs: SERVER_NODE_ARGS,
    stdio: ['ignore', 'ignore', 'inherit'],
    ownSession: true,
  });
  const pid = server.child.pid!;
  const { apiKey, hooked, mailed } = await prepare(
    server.url,
    { PATH: env.PATH, NODE_ENV: 'production', ...serverEnv },
    sinks,
  );
  const mailsBefore = (await sinks.state()).mails;

  const loadSeconds = MINUTES * 60;
  log(
    `${database}: ${RATE}/s for ${loadSeconds} s (1 in ${MAIL_EVERY} by email)…`,
  );
  let phase: Phase = 'load';
  const startedAt = performance.now();
  const sampling = sampler({
    pid,
    metricsUrl: `http://127.0.0.1:${metricsPort}/metrics`,
    everyMs: SAMPLE_MS,
    startedAt,
    phase: () => phase,
  });
  const owner = ownerPaging(server.url, hooked, apiKey);
  const pick = (i: number) =>
    i % MAIL_EVERY === MAIL_EVERY - 1 ? mailed : hooked;
  let acceptedHooks = 0;
  let acceptedMails = 0;
  const { results, lagMs } = await pacedLoad({
    base: server.url,
    rate: RATE,
    seconds: loadSeconds,
    pick,
    onAnswer: (result, formId) => {
      if (result.status !== 200) return;
      if (formId === hooked) acceptedHooks += 1;
      else acceptedMails += 1;
    },
  });
  const loadMs = performance.now() - startedAt;
  phase = 'drain';
  await sampling.take();
  const listed = await owner.stop();
  await heapSnapshot(server.child, 'at the end of the load');

  log(`drain: ${acceptedHooks} webhooks and ${acceptedMails} mails to arrive…`);
  const drainFrom = performance.now();
  let received = await sinks.state();
  while (
    (received.soakHooks < acceptedHooks ||
      received.soakMails < acceptedMails) &&
    performance.now() - drainFrom < DRAIN_MAX_MS
  ) {
    await sleep(250);
    received = await sinks.state();
  }
  const drainSeconds = (performance.now() - drainFrom) / 1000;
  await sampling.take();
  await heapSnapshot(server.child, 'after the drain');
  phase = 'idle';
  log(`idle ${IDLE_MS / 1000} s…`);
  await sleep(IDLE_MS);
  await sampling.take();
  const samples = await sampling.stop();
  received = await sinks.state();
  await heapSnapshot(server.child, 'after idle');
  await stopChild(server.child);

  const drainSamples = samples.filter((s) => s.phase === 'drain');
  const idleSample = samples.at(-1)!;
  const firstMinute = samples.filter(
    (s) => s.phase === 'load' && s.at <= Math.min(60_000, loadMs),
  );
  const delivered = received.soakHooks + received.soakMails;
  const accepted = acceptedHooks + acceptedMails;
  const outcome: Outcome = {
    database,
    rate: RATE,
    minutes: MINUTES,
    intervals: intervals(
      results,
      samples,
      Math.min(loadMs, loadSeconds * 1000),
    ),
    firstMinuteRssMb: firstMinute.at(-1)?.rssMb ?? NaN,
    drain: {
      seconds: drainSeconds,
      peakRssMb: Math.max(...drainSamples.map((s) => s.rssMb)),
      peakHeapMb: Math.max(...drainSamples.map((s) => s.heapUsedMb)),
    },
    idle: { rssMb: idleSample.rssMb, heapMb: idleSample.heapUsedMb },
    accepted,
    refused: results.length - accepted,
    delivered,
    lost: accepted - delivered,
    duplicates: received.soakHookDuplicates + received.soakMailDuplicates,
    ownerListP95Ms: percentile(listed.latencies, 0.95),
    senderLagMs: lagMs,
  };
  const missed = missedTargets(outcome);
  const statuses: Record<string, number> = {};
  for (const r of results) {
    const key = r.error === undefined ? String(r.status) : r.error;
    statuses[key] = (statuses[key] ?? 0) + 1;
  }
  console.log(table(outcome));
  console.log(
    `BENCH_JSON ${JSON.stringify({ ...outcome, statuses, mailsBefore, intervalMs: INTERVAL_MS, ownerListFailures: listed.failures, missed, samples })}`,
  );
  for (const r of results.filter((r) => r.status !== 200).slice(0, 10)) {
    log(
      `not acknowledged: planned at ${(r.at / 1000).toFixed(3)} s, ${r.error ?? r.status}`,
    );
  }
  for (const miss of missed) log(`missed: ${miss}`);
  if (env.BENCH_SOAK_WRITE !== '0' && existsSync(PERFORMANCE_MD)) {
    writeFileSync(
      PERFORMANCE_MD,
      replaceSection(
        readFileSync(PERFORMANCE_MD, 'utf8'),
        database,
        section(outcome, NOTE),
      ),
    );
    log(`written into docs/performance.md (${database})`);
  }
  process.exitCode = missed.length === 0 ? 0 : 1;
} finally {
  await sinks.close();
  rmSync(dir, { recursive: true, force: true });
}
