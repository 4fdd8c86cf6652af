// Team inbox benchmark (npm run bench:inbox): with BENCH_ROWS submissions in one form
// (default 1,000,000, seeded on the first run through the seeder, which keeps the counters),
// the reads a dashboard view makes — the status tabs' counts, the forms list's counts,
// the form page's data (counts, the 30-day chart, the first page of the New tab) — a
// rare-word search through the full-text index, and the count on top of a search for a
// common word (capped at 10,000, on All and on the New tab), each timed in this process through the
// app's services (median and worst of BENCH_RUNS runs), with the longest event-loop turn
// seen meanwhile. BENCH_DATABASE_URL: sqlite:<path> (default sqlite:/tmp/formgate-bench-inbox.sqlite)
// or a mysql:// / mariadb:// URL with a database name (created when missing).
// Prints a table and one line starting with BENCH_JSON; exit code 1 when a target is missed
// (counts, forms list and form page < 50 ms; the search and its count < 100 ms, in one request).
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { DataSource } from 'typeorm';
import { newUlid } from '../../src/common/values/ulid.js';
import { FormCounterSql } from '../../src/submissions/counters/form-counter-sql.js';
import {
  CounterChanges,
  writeCounterChanges,
} from '../../src/submissions/counters/form-counters.js';
import { sqlDatetime } from '../../src/common/database/sql-dates.js';
import {
  SearchIndexer,
  GRACE_MS,
} from '../../src/submissions/search/search-indexer.js';
import { SubmissionStatsService } from '../../src/submissions/queries/submission-stats.service.js';
import { SubmissionsService } from '../../src/submissions/submissions.service.js';
import {
  benchAccount,
  benchForm,
  openPreparingApp,
  seedUpTo,
} from '../shared/bench-data.js';
import { log } from '../shared/process.js';

const env = process.env;
const DATABASE_URL =
  env.BENCH_DATABASE_URL ?? 'sqlite:/tmp/formgate-bench-inbox.sqlite';
const ROWS = Number(env.BENCH_ROWS ?? 1_000_000);
const RUNS = Number(env.BENCH_RUNS ?? 20);
const RARE_WORD = 'quetzalcoatl';
/** A word of about one seeded submission in ten (tools/submissions/seed-values.ts). */
const COMMON_WORD = 'workshop';
const TARGET_MS = {
  tabs: 50,
  formsList: 50,
  formPage: 50,
  search: 100,
  count: 100,
};

interface Stats {
  median: number;
  worst: number;
}

async function measure(run: () => Promise<unknown>): Promise<Stats> {
  await run();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return {
    median: times[Math.floor(times.length / 2)],
    worst: times[times.length - 1],
  };
}

/** One submission holding the rare word, written with its counters as the writers do. */
async function addRare(dataSource: DataSource, formId: string): Promise<void> {
  const sqlite = dataSource.options.type === 'better-sqlite3';
  const q = (n: string) => (sqlite ? `"${n}"` : '`' + n + '`');
  const now = new Date();
  await dataSource.transaction(async (manager) => {
    await manager.query(
      `INSERT INTO ${q('submission')} (${q('id')}, ${q('formId')}, ${q('data')}, ${q('createdAt')}) VALUES (?, ?, ?, ?)`,
      [
        newUlid(now.getTime()),
        formId,
        JSON.stringify({
          name: 'Rare',
          email: 'rare@example.com',
          message: `about ${RARE_WORD}`,
        }),
        sqlDatetime(now),
      ],
    );
    await writeCounterChanges(
      (text, values) => manager.query(text, values),
      new FormCounterSql(sqlite ? 'sqlite' : 'mysql'),
      new CounterChanges().row(
        { formId, spam: 0, status: 'new', createdAt: now },
        1,
      ),
    );
  });
}

async function main(): Promise<void> {
  const app = await openPreparingApp(DATABASE_URL);
  try {
    const account = await benchAccount(app, 'inbox-bench@formgate.example');
    const form = await benchForm(app, account.id, 'Inbox bench form');
    const held = await seedUpTo(app, form.id, ROWS, {
      seed: 44,
      onProgress: (n) => {
        if (n % 100_000 === 0) log(`  ${n.toLocaleString('en-US')} rows`);
      },
    });
    const submissions = app.get(SubmissionsService);
    const stats = app.get(SubmissionStatsService);
    // One submission holds the rare word: added through the seeder's path (with counters).
    const rare = await submissions.list(form, { q: RARE_WORD, limit: 1 });
    if (rare.data.length === 0) await addRare(app.get(DataSource), form.id);
    log('Indexing for search (the worker does this in the background) …');
    const indexer = app.get(SearchIndexer);
    const indexStarted = performance.now();
    let indexed = 0;
    for (;;) {
      const n = await indexer.indexPending(Date.now() + GRACE_MS);
      indexed += n;
      if (n === 0) break;
    }
    const indexSeconds = (performance.now() - indexStarted) / 1000;
    log(
      `Indexed ${indexed.toLocaleString('en-US')} rows in ${indexSeconds.toFixed(1)} s`,
    );

    const loop = monitorEventLoopDelay({ resolution: 5 });
    loop.enable();
    const formIds = [form.id];
    const tabs = await measure(() => stats.countsOf(form));
    const formsList = await measure(() =>
      Promise.all([
        submissions.countByForms(formIds),
        stats.newCounts(formIds),
      ]),
    );
    const formPage = await measure(() =>
      Promise.all([
        stats.countsOf(form),
        stats.dailyCounts(form, 30),
        submissions.list(form, { status: 'new', limit: 25 }),
      ]),
    );
    let found = 0;
    let cursor: string | null = null;
    const search = await measure(async () => {
      const page = await submissions.list(form, { q: RARE_WORD, limit: 25 });
      found = page.data.length;
      cursor = page.nextCursor;
    });
    let counted = '';
    const count = await measure(async () => {
      const [all, onNew] = await Promise.all([
        stats.countMatches(form, { q: COMMON_WORD }),
        stats.countMatches(form, { q: COMMON_WORD, status: 'new' }),
      ]);
      counted = [all, onNew]
        .map((c) => `${c.count}${c.atLeast ? '+' : ''}`)
        .join(' / ');
    });
    loop.disable();
    const maxTurnMs = loop.max / 1e6;
    const rows = [
      ['status tabs (counts)', tabs, TARGET_MS.tabs],
      ['forms list (counts, new)', formsList, TARGET_MS.formsList],
      ['form page (counts, chart, New tab)', formPage, TARGET_MS.formPage],
      [`search "${RARE_WORD}" (one request)`, search, TARGET_MS.search],
      [`count of "${COMMON_WORD}" (All, New)`, count, TARGET_MS.count],
    ] as const;
    console.log(
      `\nTeam inbox, ${held.toLocaleString('en-US')} submissions in one form, ${app.get(DataSource).options.type} (machine shared: indicative)`,
    );
    for (const [name, s, target] of rows) {
      console.log(
        `${name.padEnd(40)} median ${s.median.toFixed(2).padStart(8)} ms   worst ${s.worst.toFixed(2).padStart(8)} ms   target < ${target} ms`,
      );
    }
    console.log(
      `search found ${found} row(s), nextCursor ${cursor === null ? 'null' : 'set'}; "${COMMON_WORD}" counted ${counted} (All / New); longest event-loop turn ${maxTurnMs.toFixed(1)} ms`,
    );
    const result = {
      database: app.get(DataSource).options.type,
      rows: held,
      tabs,
      formsList,
      formPage,
      search,
      found,
      count,
      counted,
      oneRequest: cursor === null,
      maxTurnMs,
      indexSeconds,
    };
    console.log(`BENCH_JSON ${JSON.stringify(result)}`);
    const missed =
      tabs.median >= TARGET_MS.tabs ||
      formsList.median >= TARGET_MS.formsList ||
      formPage.median >= TARGET_MS.formPage ||
      search.median >= TARGET_MS.search ||
      count.median >= TARGET_MS.count ||
      found !== 1 ||
      cursor !== null;
    process.exitCode = missed ? 1 : 0;
  } finally {
    await app.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
