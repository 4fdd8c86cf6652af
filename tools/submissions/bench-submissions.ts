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
import { DataSource } from 'typeorm';
import { AccountsService } from '../../src/accounts/accounts.service.js';
import { encodeCursor } from '../../src/submissions/queries/cursor.js';
import { Submission } from '../../src/submissions/submission.entity.js';
import {
  benchAccount,
  benchForm,
  openPreparingApp,
  RARE_TERM,
  seedUpTo,
} from '../shared/bench-data.js';
import { ensureDatabase } from '../shared/mysql.js';
import {
  BENCH_SECRET,
  log,
  startServer,
  stopChild,
} from '../shared/process.js';
import {
  exportAll,
  explainDeepPage,
  measureInterleaved,
  timed,
  type Stats,
} from './submissions-measures.js';

const env = process.env;
const DATABASE_URL =
  env.BENCH_DATABASE_URL ?? 'mariadb://root@127.0.0.1:3306/formgate_bench';
const ROWS = Number(env.BENCH_ROWS ?? 1_000_000);
const RUNS = Number(env.BENCH_RUNS ?? 30);
const DEPTH = 10_000;
const PAGE = 25;
const SEARCH_TERM = 'northwind';
const BENCH_EMAIL = 'bench@formgate.example';
const BENCH_FORM = 'Bench contact form';
const MAX_DEEP_RATIO = 1.5;
const MAX_RSS_MB = 200;

async function main(): Promise<void> {
  if (!/^(mysql|mariadb):\/\//.test(DATABASE_URL)) {
    throw new Error(
      'BENCH_DATABASE_URL must be a mysql:// or mariadb:// URL with a database name',
    );
  }
  const url = new URL(DATABASE_URL);
  const name = decodeURIComponent(url.pathname.slice(1));
  url.pathname = '/';
  await ensureDatabase(url.toString(), name);
  // The app in this process only prepares data (account, form, key, rows): it never
  // listens. The measured server is a separate process.
  const app = await openPreparingApp(DATABASE_URL);
  const dataSource = app.get(DataSource);
  const accounts = app.get(AccountsService);
  const account = await benchAccount(app, BENCH_EMAIL);
  const form = await benchForm(app, account.id, BENCH_FORM);
  const total = await seedUpTo(app, form.id, ROWS, {
    seed: 42,
    onProgress: (n) => {
      if (n % 100_000 === 0) log(`  ${n.toLocaleString('en-US')} rows`);
    },
  });
  const submissions = dataSource.getRepository(Submission);
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

  const server = await startServer({
    env: { DATABASE_URL, APP_SECRET: BENCH_SECRET, LOG_LEVEL: 'warn' },
  });
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
    await stopChild(server.child);
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
