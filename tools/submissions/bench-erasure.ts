// Erasure benchmark (npm run bench:erasure).
//
// Makes sure one form holds BENCH_ERASURE_ROWS submissions (default 1,000,000; seeded with
// the submissions seeder on the first run) on BENCH_ERASURE_DATABASE_URL (default
// sqlite:./data/bench-erasure.sqlite; a mysql:/mariadb: URL works too), plants
// BENCH_ERASURE_TARGETS submissions (default 40) that hold one address — half in the email
// field in mixed case, half inside the message — spread over the whole form, then starts
// the real server (main.js) as a child process with loop-stall-probe.js preloaded and, with
// one health check every 20 ms, measures through the API:
//   - a dry run (POST /api/v1/erasure with dryRun: every submission examined, none deleted);
//   - the data-subject export (GET /api/v1/erasure/export, read to its end);
//   - the erasure itself.
// Reports each one's time, what it found, the health checks' latency, the server's longest
// event-loop stall (with its attribution) and the machine's load average. Exit code 1 when
// one of them misses a planted submission, finds another, or the longest stall reaches 50 ms.
import { ulid } from 'ulid';
import { DataSource } from 'typeorm';
import { AccountsService } from '../../src/accounts/accounts.service.js';
import { Submission } from '../../src/submissions/submission.entity.js';
import {
  benchAccount,
  benchForm,
  openPreparingApp,
  seedUpTo,
} from '../shared/bench-data.js';
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
  TIMED_EVERY_MS,
  type PhaseResult,
} from './bench-timing.js';

const env = process.env;
const DATABASE_URL =
  env.BENCH_ERASURE_DATABASE_URL ?? 'sqlite:./data/bench-erasure.sqlite';
const ROWS = Number(env.BENCH_ERASURE_ROWS ?? 1_000_000);
const TARGETS = Number(env.BENCH_ERASURE_TARGETS ?? 40);
const ADDRESS = 'erasure.target@bench.example';
const BENCH_EMAIL = 'bench-erasure@formgate.example';
const FORM_NAME = 'Bench erasure form';
const MAX_STALL_MS = 50;
const PROBE_JS = new URL('./loop-stall-probe.js', import.meta.url).href;

/** Plants TARGETS submissions holding ADDRESS, evenly spread over the form's time span. */
async function plant(dataSource: DataSource, formId: string): Promise<void> {
  const repo = dataSource.getRepository(Submission);
  const span = 180 * 86_400_000;
  const now = Date.now();
  const rows = Array.from({ length: TARGETS }, (_, i) => {
    const createdAt = new Date(now - span + ((i + 0.5) * span) / TARGETS);
    return repo.create({
      id: ulid(createdAt.getTime()),
      formId,
      data:
        i % 2 === 0
          ? {
              name: 'Erasure Target',
              email: ADDRESS.toUpperCase(),
              company: 'Bench',
              message: 'Hello',
            }
          : {
              name: 'Someone Else',
              email: `someone${i}@bench.example`,
              company: 'Bench',
              message: `Please copy ${ADDRESS} on the answer.`,
            },
      ip: '203.0.113.9',
      userAgent: 'bench',
      origin: null,
      createdAt,
    });
  });
  await repo.insert(rows);
}

async function prepare(): Promise<{ apiKey: string; total: number }> {
  const app = await openPreparingApp(DATABASE_URL);
  try {
    const account = await benchAccount(app, BENCH_EMAIL);
    const form = await benchForm(app, account.id, FORM_NAME);
    await seedUpTo(app, form.id, ROWS, { seed: 11 });
    // A run that stopped halfway may have left some: the planted set starts afresh.
    await app
      .get(DataSource)
      .query(
        "DELETE FROM submission WHERE formId = ? AND userAgent = 'bench'",
        [form.id],
      );
    await plant(app.get(DataSource), form.id);
    const total = Number(
      (
        await app
          .get(DataSource)
          .query('SELECT COUNT(*) AS n FROM submission WHERE formId = ?', [
            form.id,
          ])
      )[0].n,
    );
    const { apiKey } = await app
      .get(AccountsService)
      .createApiKey(account.id, `bench ${new Date().toISOString()}`);
    return { apiKey, total };
  } finally {
    await app.close();
  }
}

function startProbedServer(): Promise<StartedServer> {
  return startServer({
    nodeArgs: ['--import', PROBE_JS],
    env: {
      DATABASE_URL,
      APP_SECRET: BENCH_SECRET,
      LOG_LEVEL: 'warn',
      WORKER_ENABLED: 'false',
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    ownSession: env.BENCH_ERASURE_SAME_SESSION !== '1',
  });
}

interface Outcome {
  status: number;
  found: number;
  forms?: number;
}

async function main(): Promise<void> {
  const { apiKey, total } = await prepare();
  const server = await startProbedServer();
  const headers = { 'x-api-key': apiKey, 'content-type': 'application/json' };
  const erase = async (dryRun: boolean): Promise<Outcome> => {
    const res = await fetch(`${server.url}/api/v1/erasure`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ email: ADDRESS, dryRun }),
    });
    const body = (await res.json()) as { deleted: number; forms: number };
    return { status: res.status, found: body.deleted, forms: body.forms };
  };
  const exportAll = async (): Promise<Outcome> => {
    const res = await fetch(
      `${server.url}/api/v1/erasure/export?email=${encodeURIComponent(ADDRESS)}`,
      { headers: { 'x-api-key': apiKey } },
    );
    const text = await res.text();
    return {
      status: res.status,
      found: text === '' ? 0 : text.trimEnd().split('\n').length,
    };
  };
  const outcomes: Record<string, Outcome> = {};
  const run = (name: string, work: () => Promise<Outcome>) =>
    phase(server.child, healthRequest(server.url), async () => {
      outcomes[name] = await work();
    });
  try {
    log(`Server pid ${server.child.pid} on ${server.url}`);
    log(
      `Dry run over ${total.toLocaleString('en-US')} submissions (${TARGETS} planted) …`,
    );
    const dry = await run('dry run', () => erase(true));
    log('Export …');
    const exported = await run('export', exportAll);
    log('Erasure …');
    const erased = await run('erasure', () => erase(false));

    const rows: Array<[string, PhaseResult]> = [
      ['dry run', dry],
      ['export', exported],
      ['erasure', erased],
    ];
    const pass = {
      found: Object.values(outcomes).every(
        (o) => o.status === 200 && o.found === TARGETS,
      ),
      stall: rows.every(([, p]) => p.stall.maxMs < MAX_STALL_MS),
    };
    const db = DATABASE_URL.startsWith('sqlite:') ? 'SQLite' : 'MySQL/MariaDB';
    console.log(
      [
        '',
        `Erasure benchmark — ${db}, ${total.toLocaleString('en-US')} submissions in one form, ${TARGETS} holding the address; one health check every ${TIMED_EVERY_MS} ms`,
        '',
        '| run      | found | seconds | health p50 ms | p99 ms | max ms | longest stall ms | stall p99 ms | load |',
        '|----------|------:|--------:|--------------:|-------:|-------:|-----------------:|-------------:|-----:|',
        ...rows.map(
          ([name, p]) =>
            `| ${name.padEnd(8)} | ${String(outcomes[name].found).padStart(5)} | ${p.seconds.toFixed(1).padStart(7)} | ${p.latency.median.toFixed(1).padStart(13)} | ${p.latency.p99.toFixed(1).padStart(6)} | ${p.latency.max.toFixed(1).padStart(6)} | ${p.stall.maxMs.toFixed(1).padStart(16)} | ${p.stall.p99Ms.toFixed(1).padStart(12)} | ${p.load.toFixed(1).padStart(4)} |`,
        ),
        '',
        'Attribution of the longest stalls (CPU the server used, its main thread and run-queue wait, GC inside):',
        ...rows.map(
          ([name, p]) =>
            `- ${name}: ${p.stall.over50} stalls of 50 ms or more (${p.stall.over50OffCpu} mostly off the CPU); ` +
            p.stall.longStalls
              .slice(0, 4)
              .map(
                (s) =>
                  `${s.ms} ms [cpu ${s.cpuMs}` +
                  (s.mainCpuMs === undefined
                    ? ''
                    : ` (main ${s.mainCpuMs}), run queue ${s.runQueueMs}`) +
                  `, gc ${s.gcMs}]`,
              )
              .join('; '),
        ),
        '',
        `Every run found the ${TARGETS} planted submissions and the longest stall < ${MAX_STALL_MS} ms: ${Object.values(pass).every(Boolean) ? 'PASS' : 'FAIL'} ${JSON.stringify(pass)}`,
        '',
      ].join('\n'),
    );
    console.log(
      `BENCH_JSON ${JSON.stringify({ rows: total, targets: TARGETS, outcomes, dry, exported, erased, pass })}`,
    );
    process.exitCode = Object.values(pass).every(Boolean) ? 0 : 1;
  } finally {
    await stopChild(server.child);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
