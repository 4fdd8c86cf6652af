// Submit throughput of this build against a baseline build, side by side
// (npm run bench:submit-compare).
//
// BENCH_BASELINE_DIR names a checkout of the baseline (e.g. main) with its own `npm run
// build` done (its dist/src/main.js and dist/src/cli.js are used). Both builds start on
// SQLite and on MariaDB (BENCH_MARIADB_URL, default mariadb://root@127.0.0.1:3306;
// databases formgate_bench_cmp_a/_b created afresh), each with a form of three fields and
// no CAPTCHA (the content rules at their defaults). Each round loads, per database, the two
// builds back to back (the order alternating from round to round) with autocannon
// (BENCH_CONNECTIONS 32, BENCH_SECONDS 5, BENCH_ROUNDS 7), and takes the ratio of that
// pair: on a shared, noisy machine the load changes from minute to minute, and a pair run
// within seconds of each other sees nearly the same. Prints the median pair ratio
// this/baseline, the median rates and the load average; exit code 1 when a ratio is below
// TARGET_RATIO (BENCH_TARGET, default 0.97: the submit path's side-by-side target).
// BENCH_METRICS=1 starts this build with its metrics listener on (METRICS_PORT=0, any free
// port), so the cost of counting is part of the comparison.
import autocannon from 'autocannon';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ensureDatabase } from '../shared/mysql.js';
import {
  BENCH_SECRET,
  CLI_JS,
  freePort,
  log,
  MAIN_JS,
  procCpuMs,
  sleep,
  waitFor,
} from '../shared/process.js';

const env = process.env;
const BASELINE = env.BENCH_BASELINE_DIR;
const MARIADB = env.BENCH_MARIADB_URL ?? 'mariadb://root@127.0.0.1:3306';
const CONNECTIONS = Number(env.BENCH_CONNECTIONS ?? 32);
const SECONDS = Number(env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(env.BENCH_ROUNDS ?? 7);
const TARGET_RATIO = Number(env.BENCH_TARGET ?? 0.97);

const BODY = JSON.stringify({
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  message: 'Hello! I would like to hear more about your analytical engine.',
});

interface Build {
  name: string;
  main: string;
  cli: string;
}

interface Server {
  label: string;
  url: string;
  child: ChildProcess;
  formId: string;
}

function serverEnv(databaseUrl: string, port: number): NodeJS.ProcessEnv {
  return {
    PATH: env.PATH,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    DATABASE_URL: databaseUrl,
    APP_SECRET: BENCH_SECRET,
    SUBMIT_RATE_LIMIT: '1000000',
    SUBMIT_RATE_WINDOW_SECONDS: '10',
    LOG_LEVEL: 'warn',
  };
}

async function start(build: Build, db: string, label: string): Promise<Server> {
  const port = await freePort();
  const metrics =
    build.name === 'this' && env.BENCH_METRICS === '1'
      ? { METRICS_PORT: '0' }
      : {};
  const child = spawn(process.execPath, [build.main], {
    env: { ...serverEnv(db, port), ...metrics },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/health/ready`, { child });
  const cli = spawnSync(
    process.execPath,
    [
      build.cli,
      'accounts:create',
      '--email',
      `bench-${label.replace(/\W/g, '-')}-${Date.now()}@example.com`,
      '--password',
      'bench-password-long-enough-1',
    ],
    { env: serverEnv(db, 0), encoding: 'utf8' },
  );
  if (cli.status !== 0) throw new Error(`cli failed: ${cli.stderr}`);
  const { apiKey } = JSON.parse(cli.stdout.trim().split('\n').at(-1)!) as {
    apiKey: string;
  };
  const created = await fetch(`${url}/api/v1/forms`, {
    method: 'POST',
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'Bench',
      fields: [
        { id: 'name', type: 'text', required: true },
        { id: 'email', type: 'email', required: true },
        { id: 'message', type: 'textarea' },
      ],
    }),
  });
  if (created.status !== 201) throw new Error(`form: ${created.status}`);
  const { id } = (await created.json()) as { id: string };
  return { label, url, child, formId: id };
}

interface Run {
  rate: number;
  /** The server's CPU time per accepted submission, in microseconds. */
  cpuUs: number;
}

async function load(server: Server, seconds: number): Promise<Run> {
  const cpuBefore = procCpuMs(server.child.pid ?? 0);
  const result = await autocannon({
    url: `${server.url}/api/submit/${server.formId}`,
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      origin: 'https://www.example.com',
    },
    body: BODY,
    connections: CONNECTIONS,
    duration: seconds,
  });
  if (result.non2xx + result.errors > 0) {
    log(`${server.label}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  }
  const cpuMs = procCpuMs(server.child.pid ?? 0) - cpuBefore;
  return {
    rate: Math.round(result.requests.average),
    cpuUs: Math.round((cpuMs * 1000) / Math.max(1, result['2xx'])),
  };
}

async function stop(server: Server): Promise<void> {
  if (server.child.exitCode !== null) return;
  const exited = new Promise((r) => server.child.once('exit', r));
  server.child.kill('SIGTERM');
  await Promise.race([exited, sleep(10_000)]);
  if (server.child.exitCode === null) server.child.kill('SIGKILL');
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main(): Promise<number> {
  if (!BASELINE) {
    log(
      'Set BENCH_BASELINE_DIR to a built checkout of the baseline (e.g. main).',
    );
    return 2;
  }
  const builds: Build[] = [
    {
      name: 'baseline',
      main: resolve(BASELINE, 'dist/src/main.js'),
      cli: resolve(BASELINE, 'dist/src/cli.js'),
    },
    { name: 'this', main: MAIN_JS, cli: CLI_JS },
  ];
  const dir = mkdtempSync(join(tmpdir(), 'formgate-bench-cmp-'));
  const servers: Server[] = [];
  try {
    for (const [i, build] of builds.entries()) {
      const suffix = i === 0 ? 'a' : 'b';
      servers.push(
        await start(
          build,
          `sqlite:${join(dir, `${suffix}.sqlite`)}`,
          `sqlite ${build.name}`,
        ),
      );
      const maria = await ensureDatabase(
        MARIADB,
        `formgate_bench_cmp_${suffix}`,
        {
          recreate: true,
        },
      );
      servers.push(await start(build, maria, `mariadb ${build.name}`));
    }
    for (const server of servers) await load(server, 3);
    const runs = new Map<string, number[]>(servers.map((s) => [s.label, []]));
    const cpu = new Map<string, number[]>(servers.map((s) => [s.label, []]));
    const pairRatios: Record<'sqlite' | 'mariadb', number[]> = {
      sqlite: [],
      mariadb: [],
    };
    for (let round = 1; round <= ROUNDS; round += 1) {
      for (const db of ['sqlite', 'mariadb'] as const) {
        const pair = servers.filter((s) => s.label.startsWith(db));
        // Alternate the order, so neither build always runs right after the other.
        const order = round % 2 === 1 ? pair : [...pair].reverse();
        const rates: Record<string, number> = {};
        for (const server of order) {
          const run = await load(server, SECONDS);
          rates[server.label] = run.rate;
          runs.get(server.label)!.push(run.rate);
          cpu.get(server.label)!.push(run.cpuUs);
        }
        const ratio = rates[`${db} this`] / rates[`${db} baseline`];
        pairRatios[db].push(ratio);
        log(
          `round ${round} ${db.padEnd(7)} baseline ${rates[`${db} baseline`]} req/s, this ${rates[`${db} this`]} req/s, ratio ${ratio.toFixed(2)}`,
        );
      }
    }
    const result: Record<string, number> = {};
    for (const [label, list] of runs) result[label] = median(list);
    const cpuUs: Record<string, number> = {};
    for (const [label, list] of cpu) cpuUs[label] = median(list);
    const ratios = {
      sqlite: median(pairRatios.sqlite),
      mariadb: median(pairRatios.mariadb),
    };
    const load1 = loadavg()
      .map((n) => n.toFixed(2))
      .join(' ');
    console.log(
      [
        `Submit, this build against ${BASELINE}: ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s per build, medians (load average ${load1})`,
        '',
        '| database | baseline req/s | this req/s | median pair ratio | CPU µs/submission baseline | this | ratio |',
        '|----------|----------------|------------|-------------------|----------------------------|------|-------|',
        ...(['sqlite', 'mariadb'] as const).map(
          (db) =>
            `| ${db.padEnd(8)} | ${String(result[`${db} baseline`]).padStart(14)} | ${String(result[`${db} this`]).padStart(10)} | ${ratios[db].toFixed(2)}x | ${cpuUs[`${db} baseline`]} | ${cpuUs[`${db} this`]} | ${(cpuUs[`${db} baseline`] / cpuUs[`${db} this`]).toFixed(2)}x |`,
        ),
      ].join('\n'),
    );
    console.log(
      `BENCH_JSON ${JSON.stringify({ result, ratios, loadavg: loadavg() })}`,
    );
    const misses = Object.entries(ratios).filter(([, r]) => r < TARGET_RATIO);
    for (const [db, r] of misses) {
      log(`target missed: ${db} ${r.toFixed(2)}x (target ${TARGET_RATIO}x)`);
    }
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
