// Event-loop stall benchmark (npm run bench:export-stall).
//
// On SQLite (BENCH_STALL_DATABASE_URL, default sqlite:./data/bench-export-stall.sqlite),
// whose driver runs every query on the event loop: makes sure one form holds
// BENCH_STALL_ROWS submissions (default 300,000; seeded on the first run), starts the
// real server (main.js) as a child process with loop-stall-probe.js preloaded, in a
// session of its own (BENCH_STALL_SAME_SESSION=1: in this one; BENCH_STALL_NODE_ARGS adds
// node flags such as --trace-gc or --cpu-prof), and, with one timed request every 20 ms,
// measures:
//   - idle: submissions alone;
//   - exports: BENCH_STALL_EXPORTS concurrent full exports of the form (default 10, half
//     CSV, half NDJSON, read as fast as loopback allows), once timed with health checks
//     (the stall is the exports' own) and once with submissions (whose commits also run
//     on the loop, an fsync each);
//   - searches: as many clients paging through a `q` search that matches nothing, so
//     every request examines its whole 10,000-row budget, timed with health checks.
// Reports the timed request's latency (median, p99, max), the server's longest event-loop
// stall and its p99 per phase, and the machine's load average (stalls include time the
// OS gave to other processes), then attributes the longest stalls: the GC pauses inside
// each and the CPU the server used during it (little CPU: the server was not running). Exit code 1 when the longest stall during exports or
// searches reaches 50 ms, or a submission's p99 during exports reaches 100 ms. The export
// readers run in a worker thread, so reading 10 streams never delays this process's timings.
import {
  isMainThread,
  parentPort,
  Worker,
  workerData,
} from 'node:worker_threads';
import {
  benchAccount,
  benchForm,
  openPreparingApp,
  RARE_TERM,
  seedUpTo,
} from '../shared/bench-data.js';
import { AccountsService } from '../../src/accounts/accounts.service.js';
import {
  BENCH_SECRET,
  log,
  startServer,
  stopChild,
  type StartedServer,
} from '../shared/process.js';
import {
  healthRequest,
  phase,
  submitRequest,
  TIMED_EVERY_MS,
  type PhaseResult,
} from './bench-timing.js';

const env = process.env;
const DATABASE_URL =
  env.BENCH_STALL_DATABASE_URL ?? 'sqlite:./data/bench-export-stall.sqlite';
const ROWS = Number(env.BENCH_STALL_ROWS ?? 300_000);
const EXPORTS = Number(env.BENCH_STALL_EXPORTS ?? 10);
/** Extra node flags for the measured server, e.g. `--trace-gc` or `--cpu-prof`. */
const SERVER_NODE_ARGS = (env.BENCH_STALL_NODE_ARGS ?? '')
  .split(' ')
  .filter(Boolean);
const IDLE_SUBMITS = 150;
const SEARCH_SECONDS = 15;
const BENCH_EMAIL = 'bench-stall@formgate.example';
const EXPORT_FORM = 'Bench export form';
const SUBMIT_FORM = 'Bench submit form';
const MAX_SUBMIT_P99_MS = 100;
const MAX_STALL_MS = 50;

const PROBE_JS = new URL('./loop-stall-probe.js', import.meta.url).href;

interface ExportResult {
  format: string;
  status: number;
  rows: number;
  bytes: number;
  seconds: number;
}

/** The server, with the stall probe preloaded and the submit limit out of the way. */
function startProbedServer(): Promise<StartedServer> {
  return startServer({
    nodeArgs: [...SERVER_NODE_ARGS, '--import', PROBE_JS],
    env: {
      DATABASE_URL,
      APP_SECRET: BENCH_SECRET,
      LOG_LEVEL: 'warn',
      SUBMIT_RATE_LIMIT: '1000000',
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    // Not sharing this process's CPU share (the export readers run here); set
    // BENCH_STALL_SAME_SESSION=1 to measure the server within it.
    ownSession: env.BENCH_STALL_SAME_SESSION !== '1',
  });
}

/** Reads one export to its end; counts records by line ends (native indexOf, not a JS loop). */
async function readExport(
  url: string,
  apiKey: string,
  format: string,
): Promise<ExportResult> {
  const started = performance.now();
  const res = await fetch(`${url}?format=${format}`, {
    headers: { 'x-api-key': apiKey },
  });
  let bytes = 0;
  let lines = 0;
  for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    const buffer = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
    for (
      let at = buffer.indexOf(10);
      at !== -1;
      at = buffer.indexOf(10, at + 1)
    ) {
      lines++;
    }
  }
  return {
    format,
    status: res.status,
    rows: format === 'csv' ? lines - 1 : lines,
    bytes,
    seconds: Math.round((performance.now() - started) / 100) / 10,
  };
}

/** In the worker thread: run the concurrent exports and report them to the main thread. */
async function exportWorker(): Promise<void> {
  const { url, apiKey, count } = workerData as {
    url: string;
    apiKey: string;
    count: number;
  };
  const results = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      readExport(url, apiKey, i % 2 === 0 ? 'csv' : 'ndjson'),
    ),
  );
  parentPort?.postMessage(results);
}

function exportsInWorker(
  url: string,
  apiKey: string,
  count: number,
): Promise<ExportResult[]> {
  const worker = new Worker(new URL(import.meta.url), {
    workerData: { url, apiKey, count },
  });
  return new Promise((resolve, reject) => {
    worker.once('message', (results: ExportResult[]) => resolve(results));
    worker.once('error', reject);
  });
}

/** Pages through a search that matches nothing, `clients` at a time, for `seconds`. */
async function searches(
  url: string,
  apiKey: string,
  clients: number,
  seconds: number,
): Promise<number> {
  const until = performance.now() + seconds * 1000;
  let requests = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      let cursor: string | null = null;
      while (performance.now() < until) {
        const res = await fetch(
          `${url}?limit=25&q=${RARE_TERM}${cursor ? `&cursor=${cursor}` : ''}`,
          { headers: { 'x-api-key': apiKey } },
        );
        const body = (await res.json()) as { nextCursor: string | null };
        requests++;
        cursor = body.nextCursor;
      }
    }),
  );
  return requests;
}

async function prepare(): Promise<{
  exportFormId: string;
  submitFormId: string;
  apiKey: string;
  total: number;
}> {
  // Only prepares data (account, forms, key, rows), then closes: the measured server is
  // a separate process.
  const app = await openPreparingApp(DATABASE_URL);
  try {
    const account = await benchAccount(app, BENCH_EMAIL);
    const exportForm = await benchForm(app, account.id, EXPORT_FORM);
    const submitForm = await benchForm(app, account.id, SUBMIT_FORM);
    const total = await seedUpTo(app, exportForm.id, ROWS, { seed: 7 });
    const { apiKey } = await app
      .get(AccountsService)
      .createApiKey(account.id, `bench ${new Date().toISOString()}`);
    return {
      exportFormId: exportForm.id,
      submitFormId: submitForm.id,
      apiKey,
      total,
    };
  } finally {
    await app.close();
  }
}

async function main(): Promise<void> {
  if (!DATABASE_URL.startsWith('sqlite:')) {
    throw new Error('BENCH_STALL_DATABASE_URL must be an sqlite: URL');
  }
  const { exportFormId, submitFormId, apiKey, total } = await prepare();
  const server = await startProbedServer();
  const submitUrl = `${server.url}/api/submit/${submitFormId}`;
  const listUrl = `${server.url}/api/v1/forms/${exportFormId}/submissions`;
  try {
    log(`Server pid ${server.child.pid} on ${server.url}; warming up …`);
    for (let i = 0; i < 50; i++) {
      await fetch(submitUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Warm-up', email: 'bench@example.com' }),
      }).then((res) => res.arrayBuffer());
      await fetch(`${listUrl}?limit=25&q=${RARE_TERM}`, {
        headers: { 'x-api-key': apiKey },
      }).then((res) => res.arrayBuffer());
    }
    const submits = submitRequest(submitUrl);
    const healthChecks = healthRequest(server.url);
    const exportAll = async () => {
      const results = await exportsInWorker(
        `${listUrl}/export`,
        apiKey,
        EXPORTS,
      );
      exportResults.push(...results);
    };
    const exportResults: ExportResult[] = [];
    let searchRequests = 0;

    log('Idle phase …');
    let posted = 0;
    const idle = await phase(server.child, submits, async () => {
      while (posted++ < IDLE_SUBMITS) {
        await new Promise((resolve) => setTimeout(resolve, TIMED_EVERY_MS));
      }
    });
    // Exports run twice: timed with health checks, the stall is the exports' own; timed
    // with submissions, it also holds each submission's commit (SQLite writes on the loop).
    log(
      `${EXPORTS} concurrent exports of ${total.toLocaleString('en-US')} rows, health checks …`,
    );
    const exporting = await phase(server.child, healthChecks, exportAll);
    log(`${EXPORTS} concurrent exports again, submissions …`);
    const exportingWrites = await phase(server.child, submits, exportAll);
    log(`${EXPORTS} clients paging through a search that matches nothing …`);
    const searching = await phase(server.child, healthChecks, async () => {
      searchRequests = await searches(listUrl, apiKey, EXPORTS, SEARCH_SECONDS);
    });

    const pass = {
      exportsComplete: exportResults.every(
        (e) => e.status === 200 && e.rows === total,
      ),
      exportStall: exporting.stall.maxMs < MAX_STALL_MS,
      exportSubmitP99: exportingWrites.latency.p99 < MAX_SUBMIT_P99_MS,
      searchStall: searching.stall.maxMs < MAX_STALL_MS,
    };
    const row = (name: string, p: PhaseResult) =>
      `| ${name.padEnd(40)} | ${p.timed.padEnd(12)} | ${String(p.latency.count).padStart(5)} | ${p.latency.median.toFixed(1).padStart(6)} | ${p.latency.p99.toFixed(1).padStart(6)} | ${p.latency.max.toFixed(1).padStart(7)} | ${p.stall.maxMs.toFixed(1).padStart(8)} | ${p.stall.p99Ms.toFixed(1).padStart(9)} | ${p.seconds.toFixed(1).padStart(5)} | ${p.load.toFixed(1).padStart(4)} |`;
    console.log(
      [
        '',
        `Event-loop stall benchmark — SQLite, ${total.toLocaleString('en-US')} submissions in one form; one timed request every ${TIMED_EVERY_MS} ms`,
        '',
        '| phase                                    | timed        | count | p50 ms | p99 ms |  max ms | stall ms | stall p99 |     s | load |',
        '|------------------------------------------|--------------|------:|-------:|-------:|--------:|---------:|----------:|------:|-----:|',
        row('idle', idle),
        row(`${EXPORTS} concurrent exports (CSV + NDJSON)`, exporting),
        row(`${EXPORTS} concurrent exports (CSV + NDJSON)`, exportingWrites),
        row(`${EXPORTS} clients paging a no-match q search`, searching),
        '',
        'Attribution (GC pauses; the longest stalls with the CPU the server used, the time its main thread waited for a CPU, and the GC inside each):',
        ...(
          [
            ['idle', idle],
            ['exports, health checks', exporting],
            ['exports, submissions', exportingWrites],
            ['searches', searching],
          ] as const
        ).map(
          ([name, p]) =>
            `- ${name}: ${p.stall.over50} stalls of 50 ms or more (${p.stall.over50OffCpu} with the server mostly off the CPU); ` +
            `GC max ${p.stall.gcMaxMs} ms (${p.stall.gcMaxKind}), ${p.stall.gcTotalMs} ms in ${p.stall.gcCount} pauses; ` +
            p.stall.longStalls
              .map(
                (s) =>
                  `${s.ms} ms [cpu ${s.cpuMs}` +
                  (s.mainCpuMs === undefined
                    ? ''
                    : ` (main thread ${s.mainCpuMs}), run queue ${s.runQueueMs}`) +
                  `, gc ${s.gcMs}${s.gc ? `: ${s.gc}` : ''}]`,
              )
              .join('; '),
        ),
        '',
        `Exports: ${exportResults.map((e) => `${e.format} ${e.rows.toLocaleString('en-US')} rows ${(e.bytes / 1e6).toFixed(0)} MB ${e.seconds} s`).join('; ')}`,
        `Search requests answered: ${searchRequests}`,
        `Longest stall < ${MAX_STALL_MS} ms during exports and searches, submit p99 < ${MAX_SUBMIT_P99_MS} ms during exports: ${Object.values(pass).every(Boolean) ? 'PASS' : 'FAIL'} ${JSON.stringify(pass)}`,
        '',
      ].join('\n'),
    );
    console.log(
      `BENCH_JSON ${JSON.stringify({
        rows: total,
        exports: EXPORTS,
        idle,
        exporting,
        exportingWrites,
        searching,
        exportResults,
        searchRequests,
        pass,
      })}`,
    );
    process.exitCode = Object.values(pass).every(Boolean) ? 0 : 1;
  } finally {
    await stopChild(server.child);
  }
}

if (isMainThread) {
  main().catch((error: unknown) => {
    console.error(
      error instanceof Error ? (error.stack ?? error.message) : error,
    );
    process.exit(1);
  });
} else {
  void exportWorker();
}
