// Submit throughput benchmark (npm run bench:submit).
//
// Starts, side by side on this machine: Formgate on MariaDB/MySQL, Formgate on SQLite (the
// default), the floor — a bare Fastify + mysql2 server doing the same validation and one
// INSERT per request (floor-server.ts) — and two ceilings: the same bare server batching its
// INSERTs like a commit queue, on MariaDB and on SQLite (ceiling-server.ts), the most this
// design can reach on each database. Each gets one form with three fields, then they are
// loaded in turn with autocannon (BENCH_CONNECTIONS connections, default 32, a 3-field JSON
// body), BENCH_ROUNDS rounds (default 3) of BENCH_SECONDS seconds (default 10) each, so
// machine noise falls on all alike. The median round of each is compared with the floor and
// with its database's ceiling.
// Also measured: idle RSS of each Formgate process, and cold start to /health/ready on SQLite
// (a first boot on a new database each time, measured as bench:boot does: boot-figures.ts),
// and — in the same rounds, back to back with each /api/submit run on the same process (the
// order alternating from round to round) — the Formspree-compatible POST /f/:formId (same
// body, headers as @formspree/core sends them): the median of the per-round pair ratios
// /f ÷ /api/submit (a pair run within seconds sees nearly the same machine load; target ≥ 0.95x);
// and, the same way, /api/submit with an Idempotency-Key header, a new key on every request (each
// stores its record in the submission's commit batch), beside a run that sends a new
// X-Request-Id instead (a header the server ignores), so that both rebuild every request in
// the load generator alike: the median of the per-round ratios keyed ÷ unkeyed (reported);
// and the keyed run against the price of the guarantee itself — a bare server writing the
// same two rows per request (the submission and its idempotency record) in batches
// (ceiling-server.ts with CEILING_KEYED), run right beside it: the median of the per-round
// ratios keyed Formgate ÷ keyed ceiling (target ≥ 0.9x).
//
// BENCH_MARIADB_URL (default mariadb://root@127.0.0.1:3306) names the server; a database
// formgate_bench_submit (or BENCH_SUBMIT_DATABASE) is created afresh. Prints a table and a
// BENCH_JSON line; the exit code is 1 when a target is missed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureDatabase } from '../shared/mysql.js';
import { log, sleep } from '../shared/process.js';
import { BOOT_TARGETS, coldStartMs, medianOf, rssMb } from './boot-figures.js';
import {
  CONNECTIONS,
  load,
  median,
  type Run,
  type Target,
} from './submit-load.js';
import {
  createForm,
  startBare,
  startFormgate,
  stop,
  type Server,
} from './submit-servers.js';

const env = process.env;
const MARIADB = env.BENCH_MARIADB_URL ?? 'mariadb://root@127.0.0.1:3306';
const DATABASE = env.BENCH_SUBMIT_DATABASE ?? 'formgate_bench_submit';
const SECONDS = Number(env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(env.BENCH_ROUNDS ?? 3);
const WARMUP_SECONDS = 3;

const TARGETS = {
  mariadbRatio: 1.5,
  mariadbCeilingRatio: 0.9,
  mariadbP99Ratio: 1.0,
  sqliteRatio: 1.0,
  sqliteCeilingRatio: 0.9,
  formspreeRatio: 0.95,
  idempotencyCeilingRatio: 0.9,
  ...BOOT_TARGETS,
};

function recreateDatabase(): Promise<string> {
  return ensureDatabase(MARIADB, DATABASE, { recreate: true });
}

async function main(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'formgate-bench-'));
  const sqliteUrl = `sqlite:${join(dir, 'bench.sqlite')}`;
  const mariadbUrl = await recreateDatabase();
  const servers: Server[] = [];
  try {
    log(
      'starting Formgate on MariaDB and on SQLite, the floor and the ceilings',
    );
    const mariadb = await startFormgate('formgate-mariadb', mariadbUrl);
    servers.push(mariadb);
    await createForm(mariadb, mariadbUrl);
    const sqlite = await startFormgate('formgate-sqlite', sqliteUrl);
    servers.push(sqlite);
    await createForm(sqlite, sqliteUrl);
    const readyAt = Date.now();
    await sleep(1000);
    const idleRss = {
      mariadb: rssMb(mariadb.child),
      sqlite: rssMb(sqlite.child),
    };
    const floor = await startBare('floor', 'floor', mariadbUrl, mariadb.formId);
    servers.push(floor);
    const mariadbCeiling = await startBare(
      'ceiling-mariadb',
      'ceiling',
      mariadbUrl,
      mariadb.formId,
    );
    servers.push(mariadbCeiling);
    const sqliteCeiling = await startBare(
      'ceiling-sqlite',
      'ceiling',
      `sqlite:${join(dir, 'ceiling.sqlite')}`,
      sqlite.formId,
      { SOURCE: sqliteUrl.slice('sqlite:'.length) },
    );
    servers.push(sqliteCeiling);
    // The ceilings writing an Idempotency-Key record with each submission.
    const mariadbKeyedCeiling = await startBare(
      'ceiling-mariadb +key',
      'ceiling',
      mariadbUrl,
      mariadb.formId,
      { KEYED: '1' },
    );
    servers.push(mariadbKeyedCeiling);
    const sqliteKeyedCeiling = await startBare(
      'ceiling-sqlite +key',
      'ceiling',
      `sqlite:${join(dir, 'ceiling-keyed.sqlite')}`,
      sqlite.formId,
      { SOURCE: sqliteUrl.slice('sqlite:'.length), KEYED: '1' },
    );
    servers.push(sqliteKeyedCeiling);
    // Idle RSS once more, after 30 s without a request: the heap has settled by then.
    await sleep(Math.max(0, readyAt + 30_000 - Date.now()));
    const settledRss = {
      mariadb: rssMb(mariadb.child),
      sqlite: rssMb(sqlite.child),
    };
    // The same processes, loaded on the Formspree-compatible route right after /api/submit.
    const formspree = (server: Server): Server => ({
      ...server,
      name: `${server.name} /f`,
      route: '/f/',
    });
    // And with a new Idempotency-Key on every request, beside a new X-Request-Id.
    const keyed = (server: Server): Target => ({
      ...server,
      name: `${server.name} +key`,
      uniqueHeader: 'idempotency-key',
    });
    const unkeyed = (server: Server): Target => ({
      ...server,
      name: `${server.name} +id`,
      uniqueHeader: 'x-request-id',
    });
    const keyedCeiling = (server: Server): Target => ({
      ...server,
      uniqueHeader: 'idempotency-key',
    });
    // Each Formgate process's routes run back to back, in reverse in even rounds; the keyed
    // ceiling right after (or before) the keyed run.
    const groups: Target[][] = [
      [floor],
      [mariadbCeiling],
      [
        mariadb,
        formspree(mariadb),
        unkeyed(mariadb),
        keyed(mariadb),
        keyedCeiling(mariadbKeyedCeiling),
      ],
      [sqliteCeiling],
      [
        sqlite,
        formspree(sqlite),
        unkeyed(sqlite),
        keyed(sqlite),
        keyedCeiling(sqliteKeyedCeiling),
      ],
    ];
    const order = groups.flat();

    log(`warming up (${WARMUP_SECONDS} s each)`);
    for (const server of order) await load(server, WARMUP_SECONDS);
    const runs = new Map<string, Run[]>(order.map((s) => [s.name, []]));
    const pairRatios = { mariadb: [] as number[], sqlite: [] as number[] };
    const keyRatios = { mariadb: [] as number[], sqlite: [] as number[] };
    const keyCeilingRatios = {
      mariadb: [] as number[],
      sqlite: [] as number[],
    };
    for (let round = 1; round <= ROUNDS; round += 1) {
      const roundOrder =
        round % 2 === 0
          ? groups.flatMap((group) => [...group].reverse())
          : order;
      for (const server of roundOrder) {
        const run = await load(server, SECONDS);
        runs.get(server.name)!.push(run);
        log(
          `round ${round} ${server.name.padEnd(20)} ${String(run.requestsPerSecond).padStart(6)} req/s  p50 ${run.p50} ms  p99 ${run.p99} ms  non-2xx ${run.non2xx}`,
        );
      }
      const last = (name: string) => runs.get(name)!.at(-1)!.requestsPerSecond;
      pairRatios.mariadb.push(
        last('formgate-mariadb /f') / last('formgate-mariadb'),
      );
      pairRatios.sqlite.push(
        last('formgate-sqlite /f') / last('formgate-sqlite'),
      );
      keyRatios.mariadb.push(
        last('formgate-mariadb +key') / last('formgate-mariadb +id'),
      );
      keyRatios.sqlite.push(
        last('formgate-sqlite +key') / last('formgate-sqlite +id'),
      );
      keyCeilingRatios.mariadb.push(
        last('formgate-mariadb +key') / last('ceiling-mariadb +key'),
      );
      keyCeilingRatios.sqlite.push(
        last('formgate-sqlite +key') / last('ceiling-sqlite +key'),
      );
      log(
        `round ${round} with ÷ without Idempotency-Key: MariaDB ${keyRatios.mariadb.at(-1)!.toFixed(2)}x, SQLite ${keyRatios.sqlite.at(-1)!.toFixed(2)}x`,
      );
      log(
        `round ${round} with Idempotency-Key ÷ the keyed ceiling: MariaDB ${keyCeilingRatios.mariadb.at(-1)!.toFixed(2)}x, SQLite ${keyCeilingRatios.sqlite.at(-1)!.toFixed(2)}x`,
      );
      log(
        `round ${round} /f ÷ /api/submit: MariaDB ${pairRatios.mariadb.at(-1)!.toFixed(2)}x, SQLite ${pairRatios.sqlite.at(-1)!.toFixed(2)}x`,
      );
    }
    await sleep(2000);
    const loadedRss = {
      mariadb: rssMb(mariadb.child),
      sqlite: rssMb(sqlite.child),
    };
    for (const server of servers) await stop(server);
    servers.length = 0;
    const coldStart = await coldStartMs(dir);

    const result = Object.fromEntries(
      order.map((s) => [s.name, median(runs.get(s.name)!)]),
    ) as Record<string, Run>;
    const floorRun = result.floor;
    const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;
    const summary = {
      connections: CONNECTIONS,
      seconds: SECONDS,
      rounds: ROUNDS,
      result,
      ratios: {
        mariadb: ratio(
          result['formgate-mariadb'].requestsPerSecond,
          floorRun.requestsPerSecond,
        ),
        mariadbP99: ratio(result['formgate-mariadb'].p99, floorRun.p99),
        sqlite: ratio(
          result['formgate-sqlite'].requestsPerSecond,
          floorRun.requestsPerSecond,
        ),
        mariadbCeiling: ratio(
          result['formgate-mariadb'].requestsPerSecond,
          result['ceiling-mariadb'].requestsPerSecond,
        ),
        sqliteCeiling: ratio(
          result['formgate-sqlite'].requestsPerSecond,
          result['ceiling-sqlite'].requestsPerSecond,
        ),
        formspreeMariadb: ratio(medianOf(pairRatios.mariadb), 1),
        formspreeSqlite: ratio(medianOf(pairRatios.sqlite), 1),
        idempotencyMariadb: ratio(medianOf(keyRatios.mariadb), 1),
        idempotencySqlite: ratio(medianOf(keyRatios.sqlite), 1),
        idempotencyCeilingMariadb: ratio(medianOf(keyCeilingRatios.mariadb), 1),
        idempotencyCeilingSqlite: ratio(medianOf(keyCeilingRatios.sqlite), 1),
      },
      keyRatiosByRound: keyRatios,
      keyCeilingRatiosByRound: keyCeilingRatios,
      idleRssMb: idleRss,
      idleRssAfter30sMb: settledRss,
      rssAfterLoadMb: loadedRss,
      coldStartMs: coldStart,
    };

    const rows = order.map((s) => {
      const r = result[s.name];
      return `| ${s.name.padEnd(20)} | ${String(r.requestsPerSecond).padStart(7)} | ${String(ratio(r.requestsPerSecond, floorRun.requestsPerSecond)).padStart(5)}x | ${String(r.p50).padStart(4)} ms | ${String(r.p99).padStart(4)} ms | ${String(r.non2xx + r.errors).padStart(7)} |`;
    });
    console.log(
      [
        `Submit benchmark: ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s, median round`,
        '',
        '| server               |   req/s | ratio  |     p50 |     p99 | non-2xx |',
        '|----------------------|---------|--------|---------|---------|---------|',
        ...rows,
        '',
        `Formgate ÷ its database's ceiling: MariaDB ${summary.ratios.mariadbCeiling}x, SQLite ${summary.ratios.sqliteCeiling}x`,
        `/f/:formId ÷ /api/submit/:formId, median of the pairs run back to back on one process: MariaDB ${summary.ratios.formspreeMariadb}x, SQLite ${summary.ratios.formspreeSqlite}x`,
        `/api/submit with ÷ without an Idempotency-Key (a new key, or a new X-Request-Id, per request), median of the pairs: MariaDB ${summary.ratios.idempotencyMariadb}x, SQLite ${summary.ratios.idempotencySqlite}x`,
        `/api/submit with an Idempotency-Key ÷ a bare server writing the same two rows per request in batches, median of the pairs: MariaDB ${summary.ratios.idempotencyCeilingMariadb}x, SQLite ${summary.ratios.idempotencyCeilingSqlite}x`,
        `idle RSS 1 s after ready: MariaDB ${idleRss.mariadb} MB, SQLite ${idleRss.sqlite} MB; after 30 s idle: ${settledRss.mariadb} MB, ${settledRss.sqlite} MB (after load: ${loadedRss.mariadb} MB, ${loadedRss.sqlite} MB)`,
        `cold start to /health/ready on SQLite: ${coldStart} ms`,
      ].join('\n'),
    );
    console.log(`BENCH_JSON ${JSON.stringify(summary)}`);

    const misses: string[] = [];
    const maria = result['formgate-mariadb'];
    if (summary.ratios.mariadb < TARGETS.mariadbRatio) {
      misses.push(
        `MariaDB ${summary.ratios.mariadb}x the floor (target ${TARGETS.mariadbRatio}x)`,
      );
    }
    if (summary.ratios.mariadbP99 > TARGETS.mariadbP99Ratio) {
      misses.push(
        `MariaDB p99 ${summary.ratios.mariadbP99}x the floor's (target ≤ ${TARGETS.mariadbP99Ratio}x)`,
      );
    }
    if (maria.non2xx + maria.errors > 0) {
      misses.push(`MariaDB answered ${maria.non2xx + maria.errors} non-2xx`);
    }
    if (summary.ratios.mariadbCeiling < TARGETS.mariadbCeilingRatio) {
      misses.push(
        `MariaDB ${summary.ratios.mariadbCeiling}x its ceiling (target ${TARGETS.mariadbCeilingRatio}x)`,
      );
    }
    if (summary.ratios.sqliteCeiling < TARGETS.sqliteCeilingRatio) {
      misses.push(
        `SQLite ${summary.ratios.sqliteCeiling}x its ceiling (target ${TARGETS.sqliteCeilingRatio}x)`,
      );
    }
    if (summary.ratios.sqlite < TARGETS.sqliteRatio) {
      misses.push(
        `SQLite ${summary.ratios.sqlite}x the floor (target ${TARGETS.sqliteRatio}x)`,
      );
    }
    const sqliteRun = result['formgate-sqlite'];
    if (sqliteRun.non2xx + sqliteRun.errors > 0) {
      misses.push(
        `SQLite answered ${sqliteRun.non2xx + sqliteRun.errors} non-2xx`,
      );
    }
    for (const [database, value] of [
      ['MariaDB', summary.ratios.formspreeMariadb],
      ['SQLite', summary.ratios.formspreeSqlite],
    ] as const) {
      if (value < TARGETS.formspreeRatio) {
        misses.push(
          `/f on ${database} ${value}x /api/submit (target ${TARGETS.formspreeRatio}x)`,
        );
      }
    }
    for (const [database, value] of [
      ['MariaDB', summary.ratios.idempotencyCeilingMariadb],
      ['SQLite', summary.ratios.idempotencyCeilingSqlite],
    ] as const) {
      if (value < TARGETS.idempotencyCeilingRatio) {
        misses.push(
          `Idempotency-Key on ${database} ${value}x the keyed ceiling (target ${TARGETS.idempotencyCeilingRatio}x)`,
        );
      }
    }
    for (const name of [
      'formgate-mariadb /f',
      'formgate-sqlite /f',
      'formgate-mariadb +key',
      'formgate-sqlite +key',
      'formgate-mariadb +id',
      'formgate-sqlite +id',
      'ceiling-mariadb',
      'ceiling-sqlite',
      'ceiling-mariadb +key',
      'ceiling-sqlite +key',
    ]) {
      const run = result[name];
      if (run.non2xx + run.errors > 0) {
        misses.push(`${name} answered ${run.non2xx + run.errors} non-2xx`);
      }
    }
    if (settledRss.sqlite >= TARGETS.idleRssMb) {
      misses.push(
        `idle RSS on SQLite ${settledRss.sqlite} MB (target < ${TARGETS.idleRssMb} MB)`,
      );
    }
    if (coldStart >= TARGETS.coldStartMs) {
      misses.push(
        `cold start ${coldStart} ms (target < ${TARGETS.coldStartMs} ms)`,
      );
    }
    for (const miss of misses) log(`target missed: ${miss}`);
    return misses.length === 0 ? 0 : 1;
  } finally {
    for (const server of servers) await stop(server);
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
