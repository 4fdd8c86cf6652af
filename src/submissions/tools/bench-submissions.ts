// Submissions API benchmark (npm run bench:submissions).
//
// Against MySQL/MariaDB (BENCH_DATABASE_URL, default
// mariadb://root@127.0.0.1:3306/formgate_bench — the database is created if missing):
// makes sure one form holds BENCH_ROWS submissions (default 1,000,000; seeded on the
// first run), starts the real server (main.js) as a child process and measures over
// HTTP: latency of the first page, a page 10,000 rows deep, a from/to page and a q
// search (median/p95 of BENCH_RUNS runs, default 30), then the throughput of a full CSV
// and NDJSON export and the server's peak RSS (VmHWM) while exporting.
// Prints a table and one machine-readable line starting with BENCH_JSON.
// Exit code 1 when the deep page is slower than 1.5x the first page or the peak RSS
// reaches 200 MB.
import 'reflect-metadata';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { createConnection } from 'mysql2/promise';
import { DataSource } from 'typeorm';
import { AccountsService } from '../../accounts/accounts.service.js';
import { createApp } from '../../app.setup.js';
import { loadConfig } from '../../config/app-config.js';
import { DatabaseStateService } from '../../database/database-state.service.js';
import { Form } from '../../forms/form.entity.js';
import { FormsService } from '../../forms/forms.service.js';
import { encodeCursor } from '../cursor.js';
import { Submission } from '../submission.entity.js';
import { seedSubmissions } from './seed-submissions.js';

const env = process.env;
const DATABASE_URL =
  env.BENCH_DATABASE_URL ?? 'mariadb://root@127.0.0.1:3306/formgate_bench';
const ROWS = Number(env.BENCH_ROWS ?? 1_000_000);
const RUNS = Number(env.BENCH_RUNS ?? 30);
const DEPTH = 10_000;
const PAGE = 25;
const SEARCH_TERM = 'northwind';
/** Matches nothing: the search examines its whole per-request budget. */
const RARE_TERM = 'no-such-text';
const BENCH_SECRET = 'formgate-bench-secret-not-for-production-0123456789';
const BENCH_EMAIL = 'bench@formgate.example';
const BENCH_FORM = 'Bench contact form';
const MAX_DEEP_RATIO = 1.5;
const MAX_RSS_MB = 200;

const MAIN_JS = fileURLToPath(new URL('../../main.js', import.meta.url));

interface Stats {
  runs: number;
  median: number;
  p95: number;
  min: number;
  max: number;
}

function stats(samples: number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) =>
    sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  const round = (n: number) => Math.round(n * 100) / 100;
  return {
    runs: sorted.length,
    median: round(at(0.5)),
    p95: round(at(0.95)),
    min: round(sorted[0]),
    max: round(sorted[sorted.length - 1]),
  };
}

function log(message: string): void {
  process.stderr.write(`${message}\n`);
}

async function ensureDatabase(url: string): Promise<void> {
  const parsed = new URL(url);
  const name = decodeURIComponent(parsed.pathname.slice(1));
  if (!/^[A-Za-z0-9_]+$/.test(name))
    throw new Error(`Unusable database name "${name}"`);
  const connection = await createConnection({
    host: parsed.hostname,
    port: Number(parsed.port || 3306),
    user: decodeURIComponent(parsed.username),
    password: decodeURIComponent(parsed.password),
  });
  await connection.query(
    `CREATE DATABASE IF NOT EXISTS \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`,
  );
  await connection.end();
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

function procStatus(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  return match ? Number(match[1]) / 1024 : NaN;
}

async function startServer(
  port: number,
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [MAIN_JS], {
    env: {
      PATH: env.PATH ?? '',
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL,
      APP_SECRET: BENCH_SECRET,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`Server exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${url}/health/ready`);
      if (res.ok) return { child, url };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  child.kill('SIGTERM');
  throw new Error('Server did not become ready within 60 s');
}

async function timed(
  url: string,
  apiKey: string,
): Promise<{ ms: number; status: number; body: string }> {
  const started = performance.now();
  const res = await fetch(url, { headers: { 'x-api-key': apiKey } });
  const body = await res.text();
  return { ms: performance.now() - started, status: res.status, body };
}

/**
 * Runs the scenarios round-robin (one request of each per round), so background
 * noise on the machine hits all of them alike and their medians stay comparable.
 */
async function measureInterleaved(
  scenarios: Record<string, string>,
  apiKey: string,
  runs: number,
): Promise<Record<string, Stats & { rows: number }>> {
  const samples: Record<string, number[]> = {};
  const rows: Record<string, number> = {};
  for (const [name, url] of Object.entries(scenarios)) {
    const first = await timed(url, apiKey);
    if (first.status !== 200)
      throw new Error(
        `${name}: HTTP ${first.status} ${first.body.slice(0, 200)}`,
      );
    rows[name] = (JSON.parse(first.body) as { data: unknown[] }).data.length;
    samples[name] = [];
  }
  for (let round = -3; round < runs; round++) {
    for (const [name, url] of Object.entries(scenarios)) {
      const result = await timed(url, apiKey);
      if (result.status !== 200)
        throw new Error(`${name}: HTTP ${result.status}`);
      if (round >= 0) samples[name].push(result.ms); // rounds -3..-1 warm up
    }
  }
  return Object.fromEntries(
    Object.keys(scenarios).map((name) => [
      name,
      { ...stats(samples[name]), rows: rows[name] },
    ]),
  );
}

async function exportAll(
  url: string,
  apiKey: string,
  pid: number,
): Promise<{
  rows: number;
  bytes: number;
  seconds: number;
  rowsPerSecond: number;
  rssBeforeMb: number;
  peakRssMb: number;
  hwmMb: number;
}> {
  const rssBeforeMb = procStatus(pid, 'VmRSS');
  let peakRssMb = rssBeforeMb;
  const sampler = setInterval(() => {
    peakRssMb = Math.max(peakRssMb, procStatus(pid, 'VmRSS'));
  }, 50);
  const started = performance.now();
  const res = await fetch(url, { headers: { 'x-api-key': apiKey } });
  if (res.status !== 200 || !res.body) {
    clearInterval(sampler);
    throw new Error(`export: HTTP ${res.status} ${await res.text()}`);
  }
  let bytes = 0;
  let lines = 0;
  for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    for (let i = 0; i < chunk.length; i++) if (chunk[i] === 10) lines++;
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  peakRssMb = Math.max(peakRssMb, procStatus(pid, 'VmRSS'));
  const rows = url.includes('format=ndjson') ? lines : lines - 1;
  return {
    rows,
    bytes,
    seconds: Math.round(seconds * 100) / 100,
    rowsPerSecond: Math.round(rows / seconds),
    rssBeforeMb: Math.round(rssBeforeMb),
    peakRssMb: Math.round(peakRssMb),
    hwmMb: Math.round(procStatus(pid, 'VmHWM')),
  };
}

/**
 * EXPLAIN of the deep-page query as the service sends it, and how many index entries
 * MariaDB/MySQL actually read for it (Handler_read_* of one dedicated session).
 */
async function explainDeepPage(
  url: string,
  formId: string,
  cursorAt: Date,
  cursorId: string,
): Promise<{ plan: string; handlerReads: Record<string, number> }> {
  const parsed = new URL(url);
  const connection = await createConnection({
    host: parsed.hostname,
    port: Number(parsed.port || 3306),
    user: decodeURIComponent(parsed.username),
    password: decodeURIComponent(parsed.password),
    database: decodeURIComponent(parsed.pathname.slice(1)),
    timezone: 'Z',
  });
  try {
    const at = cursorAt.toISOString().replace('T', ' ').replace('Z', '');
    const sql =
      'SELECT `id`, `formId`, `data`, `ip`, `userAgent`, `origin`, `createdAt` ' +
      'FROM `submission` FORCE INDEX (`IDX_submission_form_created_id`) ' +
      'WHERE `formId` = ? AND `createdAt` <= ? AND (`createdAt` < ? OR (`createdAt` = ? AND `id` < ?)) ' +
      'ORDER BY `createdAt` DESC, `id` DESC LIMIT 26';
    const params = [formId, at, at, at, cursorId];
    const [explained] = await connection.query(`EXPLAIN ${sql}`, params);
    const plan = (
      explained as Array<{
        type: string;
        key: string | null;
        key_len: string;
        Extra: string;
      }>
    )
      .map(
        (row) =>
          `type=${row.type} key=${row.key} key_len=${row.key_len} extra="${row.Extra}"`,
      )
      .join('; ');
    await connection.query('FLUSH STATUS');
    await connection.query(sql, params);
    const [status] = await connection.query(
      "SHOW SESSION STATUS LIKE 'Handler_read%'",
    );
    const handlerReads: Record<string, number> = {};
    for (const row of status as Array<{
      Variable_name: string;
      Value: string;
    }>) {
      if (Number(row.Value) > 0)
        handlerReads[row.Variable_name] = Number(row.Value);
    }
    return { plan, handlerReads };
  } finally {
    await connection.end();
  }
}

async function main(): Promise<void> {
  if (!/^(mysql|mariadb):\/\//.test(DATABASE_URL)) {
    throw new Error(
      'BENCH_DATABASE_URL must be a mysql:// or mariadb:// URL with a database name',
    );
  }
  await ensureDatabase(DATABASE_URL);
  const config = loadConfig({
    DATABASE_URL,
    APP_SECRET: BENCH_SECRET,
    LOG_LEVEL: 'warn',
  });
  // The app in this process only prepares data (account, form, key, rows): it never
  // listens. The measured server is a separate process.
  const app = await createApp(config, {
    logDestination: new Writable({ write: (_c, _e, done) => done() }),
  });
  await app.get(DatabaseStateService).whenConnected();
  const dataSource = app.get(DataSource);
  const accounts = app.get(AccountsService);
  const account =
    (await accounts.findByEmail(BENCH_EMAIL)) ??
    (await accounts.create(BENCH_EMAIL, 'bench-password-0123456789'));
  const form =
    (await dataSource
      .getRepository(Form)
      .findOneBy({ accountId: account.id, name: BENCH_FORM })) ??
    (
      await app.get(FormsService).create(account.id, {
        name: BENCH_FORM,
        fields: [
          { id: 'name', type: 'text', label: 'Name', required: true },
          { id: 'email', type: 'email', label: 'Email', required: true },
          { id: 'company', type: 'text', label: 'Company' },
          { id: 'message', type: 'textarea', label: 'Message' },
        ],
      })
    ).form;
  const submissions = dataSource.getRepository(Submission);
  const existing = await submissions.countBy({ formId: form.id });
  if (existing < ROWS) {
    log(
      `Seeding ${(ROWS - existing).toLocaleString('en-US')} submissions into form ${form.id} …`,
    );
    const started = performance.now();
    await seedSubmissions(dataSource, {
      formId: form.id,
      count: ROWS - existing,
      seed: 42 + existing,
      onProgress: (n) => {
        if (n % 100_000 === 0) log(`  ${n.toLocaleString('en-US')} rows`);
      },
    });
    log(`Seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  const total = await submissions.countBy({ formId: form.id });
  const { apiKey, key } = await accounts.createApiKey(
    account.id,
    `bench ${new Date().toISOString()}`,
  );

  // The row at depth 10,000 (OFFSET only here, to find the expected position).
  const [deepRow] = await submissions.find({
    select: { id: true, createdAt: true },
    where: { formId: form.id },
    order: { createdAt: 'DESC', id: 'DESC' },
    skip: DEPTH - 1,
    take: 1,
  });
  const deepCursor = encodeCursor(deepRow);
  const [newest] = await submissions.find({
    select: { id: true, createdAt: true },
    where: { formId: form.id },
    order: { createdAt: 'DESC', id: 'DESC' },
    take: 1,
  });
  const windowEnd = new Date(newest.createdAt.getTime() - 90 * 86_400_000);
  const windowStart = new Date(windowEnd.getTime() - 7 * 86_400_000);
  const { plan, handlerReads } = await explainDeepPage(
    DATABASE_URL,
    form.id,
    deepRow.createdAt,
    deepRow.id,
  );
  const [{ version }] = await dataSource.query<Array<{ version: string }>>(
    'SELECT VERSION() AS version',
  );

  const port = await freePort();
  const server = await startServer(port);
  const pid = server.child.pid!;
  const base = `${server.url}/api/v1/forms/${form.id}/submissions`;
  try {
    log(
      `Server pid ${pid} on ${server.url}; measuring (${RUNS} interleaved rounds) …`,
    );
    const latency = (await measureInterleaved(
      {
        firstPage: `${base}?limit=${PAGE}`,
        deepPage: `${base}?limit=${PAGE}&cursor=${deepCursor}`,
        filteredPage: `${base}?limit=${PAGE}&from=${windowStart.toISOString()}&to=${windowEnd.toISOString()}`,
        search: `${base}?limit=${PAGE}&q=${SEARCH_TERM}`,
        searchRare: `${base}?limit=${PAGE}&q=${RARE_TERM}`,
      },
      apiKey,
      RUNS,
    )) as Record<
      'firstPage' | 'deepPage' | 'filteredPage' | 'search' | 'searchRare',
      Stats & { rows: number }
    >;

    // Walking the cursors down to depth 10,000 must land on the same row.
    const walkStarted = performance.now();
    let cursor: string | null = null;
    for (let page = 0; page < DEPTH / 100; page++) {
      const res = await timed(
        `${base}?limit=100${cursor ? `&cursor=${cursor}` : ''}`,
        apiKey,
      );
      cursor = (JSON.parse(res.body) as { nextCursor: string | null })
        .nextCursor;
    }
    const walk = {
      pages: DEPTH / 100,
      seconds: Math.round((performance.now() - walkStarted) / 10) / 100,
      landsOnExpectedRow: cursor === deepCursor,
    };

    log('Exporting everything as CSV …');
    const csv = await exportAll(`${base}/export?format=csv`, apiKey, pid);
    log('Exporting everything as NDJSON …');
    const ndjson = await exportAll(`${base}/export?format=ndjson`, apiKey, pid);

    const deepRatio =
      Math.round((latency.deepPage.median / latency.firstPage.median) * 100) /
      100;
    const peakRss = Math.max(
      csv.peakRssMb,
      csv.hwmMb,
      ndjson.peakRssMb,
      ndjson.hwmMb,
    );
    const pass = {
      deepPage: deepRatio <= MAX_DEEP_RATIO,
      exportRss: peakRss < MAX_RSS_MB,
      exportComplete: csv.rows === total && ndjson.rows === total,
      cursorWalk: walk.landsOnExpectedRow,
    };

    const fmt = (n: number) => n.toFixed(1).padStart(8);
    const lines = [
      '',
      `Submissions benchmark — ${version}, ${total.toLocaleString('en-US')} submissions in one form, ${RUNS} interleaved runs per scenario, HTTP over loopback`,
      `Deep-page query plan (EXPLAIN): ${plan}; handler reads: ${JSON.stringify(handlerReads)}`,
      '',
      '| scenario                              | median ms | p95 ms |  min ms |  max ms | rows |',
      '|---------------------------------------|----------:|-------:|--------:|--------:|-----:|',
      ...(
        [
          ['first page (limit 25)', latency.firstPage],
          [
            `page ${DEPTH.toLocaleString('en-US')} rows deep (cursor)`,
            latency.deepPage,
          ],
          ['from/to page (7-day window)', latency.filteredPage],
          [`q search "${SEARCH_TERM}"`, latency.search],
          [`q search "${RARE_TERM}" (no match)`, latency.searchRare],
        ] as Array<[string, Stats & { rows: number }]>
      ).map(
        ([name, s]) =>
          `| ${name.padEnd(37)} | ${fmt(s.median)}  | ${fmt(s.p95).slice(2)} | ${fmt(s.min)} | ${fmt(s.max)} | ${String(s.rows).padStart(4)} |`,
      ),
      '',
      `Cursor walk to depth ${DEPTH.toLocaleString('en-US')} (${walk.pages} pages of 100): ${walk.seconds} s, lands on the expected row: ${walk.landsOnExpectedRow}`,
      '',
      '| export | rows | MB | seconds | rows/s | server RSS before | peak RSS during | VmHWM |',
      '|--------|-----:|---:|--------:|-------:|------------------:|----------------:|------:|',
      ...(
        [
          ['CSV', csv],
          ['NDJSON', ndjson],
        ] as const
      ).map(
        ([name, e]) =>
          `| ${name} | ${e.rows.toLocaleString('en-US')} | ${(e.bytes / 1e6).toFixed(0)} | ${e.seconds} | ${e.rowsPerSecond.toLocaleString('en-US')} | ${e.rssBeforeMb} MB | ${e.peakRssMb} MB | ${e.hwmMb} MB |`,
      ),
      '',
      `Deep page / first page (median): ${deepRatio} (must be ≤ ${MAX_DEEP_RATIO}) → ${pass.deepPage ? 'PASS' : 'FAIL'}`,
      `Peak server RSS while exporting: ${peakRss} MB (must be < ${MAX_RSS_MB} MB) → ${pass.exportRss ? 'PASS' : 'FAIL'}`,
      `Exports complete (${total.toLocaleString('en-US')} rows each): ${pass.exportComplete ? 'PASS' : 'FAIL'}`,
      '',
    ];
    console.log(lines.join('\n'));
    console.log(
      `BENCH_JSON ${JSON.stringify({
        database: version,
        rows: total,
        runs: RUNS,
        latencyMs: latency,
        deepRatio,
        plan,
        handlerReads,
        walk,
        export: { csv, ndjson },
        peakRssMb: peakRss,
        pass,
      })}`,
    );
    process.exitCode = Object.values(pass).every(Boolean) ? 0 : 1;
  } finally {
    if (server.child.exitCode === null) {
      const exited = new Promise((resolve) =>
        server.child.once('exit', resolve),
      );
      server.child.kill('SIGTERM');
      await exited;
    }
    await accounts.revokeApiKey(account.id, key.id).catch(() => undefined);
    await app.close();
  }
}

main().catch((error: unknown) => {
  console.error(
    error instanceof Error ? (error.stack ?? error.message) : error,
  );
  process.exit(1);
});
