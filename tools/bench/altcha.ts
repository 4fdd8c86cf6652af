// ALTCHA verification throughput (npm run bench:altcha).
//
// Starts Formgate on SQLite and on MariaDB (BENCH_MARIADB_URL, default
// mariadb://root@127.0.0.1:3306, database formgate_bench_altcha created afresh), each with
// one form that uses ALTCHA, and loads its submit route with autocannon (BENCH_CONNECTIONS,
// default 32; BENCH_SECONDS, default 10; BENCH_ROUNDS, default 3, median round) where every
// request carries a different solved challenge — verified (two HMACs), claimed as used
// (one row) and stored. Challenges are made here with the server's own key (the bench
// knows its APP_SECRET) and solved at their known counter, so preparing 100,000 of them
// takes seconds; the server cannot tell them from the route's. In the same rounds a form
// without CAPTCHA on the same server is loaded too, as the reference, and each run's server
// CPU time per accepted submission is measured (on a shared machine it varies far less than
// the rate). Prints a table and a BENCH_JSON line; exit code 1 when a server verifies
// fewer than TARGET_PER_SECOND.
import autocannon from 'autocannon';
import { createChallenge, solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { altchaSecrets } from '../../src/spam/altcha.service.js';
import { ALTCHA_ALGORITHM } from '../../src/spam/altcha-payload.js';
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
const MARIADB = env.BENCH_MARIADB_URL ?? 'mariadb://root@127.0.0.1:3306';
const DATABASE = 'formgate_bench_altcha';
const CONNECTIONS = Number(env.BENCH_CONNECTIONS ?? 32);
const SECONDS = Number(env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(env.BENCH_ROUNDS ?? 3);
const TARGET_PER_SECOND = 2000;
/** Far more than a round can use at the target rate. */
const PAYLOADS_PER_ROUND = Number(env.BENCH_PAYLOADS ?? 60_000);

interface Server {
  name: string;
  url: string;
  child: ChildProcess;
  formId: string;
  /** The same fields without CAPTCHA: the reference. */
  plainFormId: string;
  databaseUrl: string;
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
    LOG_LEVEL: env.BENCH_LOG_LEVEL ?? 'warn',
  };
}

async function start(name: string, databaseUrl: string): Promise<Server> {
  const port = await freePort();
  const child = spawn(process.execPath, [MAIN_JS], {
    env: serverEnv(databaseUrl, port),
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/health/ready`, { child });
  const cli = spawnSync(
    process.execPath,
    [
      CLI_JS,
      'accounts:create',
      '--email',
      `bench-${Date.now()}@example.com`,
      '--password',
      'bench-password-long-enough-1',
    ],
    { env: serverEnv(databaseUrl, 0), encoding: 'utf8' },
  );
  if (cli.status !== 0) throw new Error(`cli failed: ${cli.stderr}`);
  const { apiKey } = JSON.parse(cli.stdout.trim().split('\n').at(-1)!) as {
    apiKey: string;
  };
  const create = async (captcha: unknown) => {
    const created = await fetch(`${url}/api/v1/forms`, {
      method: 'POST',
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'ALTCHA bench',
        fields: [
          { id: 'name', type: 'text', required: true },
          { id: 'email', type: 'email', required: true },
          { id: 'message', type: 'textarea' },
        ],
        captcha,
      }),
    });
    if (created.status !== 201) {
      throw new Error(`form: ${created.status} ${await created.text()}`);
    }
    return ((await created.json()) as { id: string }).id;
  };
  return {
    name,
    url,
    child,
    formId: await create({ provider: 'altcha' }),
    plainFormId: await create(null),
    databaseUrl,
  };
}

/** Request bodies, each with its own solved challenge for the form. */
async function payloads(formId: string, count: number): Promise<string[]> {
  const secrets = altchaSecrets(BENCH_SECRET, formId);
  const bodies: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const counter = 500 + (i % 1000);
    const challenge = await createChallenge({
      algorithm: ALTCHA_ALGORITHM,
      cost: 1,
      counter,
      deriveKey,
      expiresAt: Math.floor(Date.now() / 1000) + 3600,
      hmacSignatureSecret: secrets.signature,
      hmacKeySignatureSecret: secrets.key,
    });
    const solution = await solveChallenge({
      challenge,
      deriveKey,
      counterStart: counter,
    });
    bodies.push(
      JSON.stringify({
        name: 'Ada Lovelace',
        email: 'ada@example.com',
        message: 'Hello! I would like to hear more about your engine.',
        altcha: Buffer.from(JSON.stringify({ challenge, solution })).toString(
          'base64',
        ),
      }),
    );
  }
  return bodies;
}

interface Run {
  perSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** Server CPU time per accepted submission, µs. */
  cpuUs: number;
}

const PLAIN_BODY = JSON.stringify({
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  message: 'Hello! I would like to hear more about your engine.',
});

async function loadPlain(server: Server, seconds: number): Promise<Run> {
  const cpuBefore = procCpuMs(server.child.pid ?? 0);
  const result = await autocannon({
    url: `${server.url}/api/submit/${server.plainFormId}`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: PLAIN_BODY,
    connections: CONNECTIONS,
    duration: seconds,
  });
  const cpuMs = procCpuMs(server.child.pid ?? 0) - cpuBefore;
  return {
    perSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    cpuUs: Math.round((cpuMs * 1000) / Math.max(1, result['2xx'])),
  };
}

async function load(server: Server, bodies: string[], seconds: number) {
  let next = 0;
  const cpuBefore = procCpuMs(server.child.pid ?? 0);
  const result = await autocannon({
    url: `${server.url}/api/submit/${server.formId}`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    connections: CONNECTIONS,
    duration: seconds,
    requests: [
      {
        setupRequest: (request) => {
          if (next >= bodies.length) throw new Error('out of payloads');
          request.body = bodies[next++];
          return request;
        },
      },
    ],
  });
  const cpuMs = procCpuMs(server.child.pid ?? 0) - cpuBefore;
  // Every payload handed out is used up, answered or not.
  bodies.splice(0, next);
  return {
    perSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    cpuUs: Math.round((cpuMs * 1000) / Math.max(1, result['2xx'])),
  } satisfies Run;
}

async function stop(server: Server): Promise<void> {
  if (server.child.exitCode !== null) return;
  const exited = new Promise((r) => server.child.once('exit', r));
  server.child.kill('SIGTERM');
  await Promise.race([exited, sleep(10_000)]);
  if (server.child.exitCode === null) server.child.kill('SIGKILL');
}

async function main(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'formgate-bench-altcha-'));
  const servers: Server[] = [];
  try {
    const mariadbUrl = await ensureDatabase(MARIADB, DATABASE, {
      recreate: true,
    });
    servers.push(await start('sqlite', `sqlite:${join(dir, 'bench.sqlite')}`));
    servers.push(await start('mariadb', mariadbUrl));
    const runs = new Map<string, Run[]>(servers.map((s) => [s.name, []]));
    const plain = new Map<string, Run[]>(servers.map((s) => [s.name, []]));
    const prepared = new Map<string, string[]>();
    for (const server of servers) {
      log(
        `preparing ${PAYLOADS_PER_ROUND} solved challenges for ${server.name}`,
      );
      prepared.set(
        server.name,
        await payloads(server.formId, PAYLOADS_PER_ROUND),
      );
    }
    for (const server of servers) {
      await load(server, prepared.get(server.name)!, 2);
    }
    for (let round = 1; round <= ROUNDS; round += 1) {
      for (const server of servers) {
        const pool = prepared.get(server.name)!;
        if (pool.length < PAYLOADS_PER_ROUND / 2) {
          pool.push(...(await payloads(server.formId, PAYLOADS_PER_ROUND)));
        }
        const run = await load(server, pool, SECONDS);
        runs.get(server.name)!.push(run);
        const reference = await loadPlain(server, SECONDS);
        plain.get(server.name)!.push(reference);
        log(
          `round ${round} ${server.name.padEnd(8)} ${String(run.perSecond).padStart(6)} verified submissions/s (${run.cpuUs} µs CPU each)  p50 ${run.p50} ms  p99 ${run.p99} ms  non-2xx ${run.non2xx}; without CAPTCHA ${reference.perSecond}/s (${reference.cpuUs} µs)`,
        );
      }
    }
    const medians = Object.fromEntries(
      [...runs].map(([name, list]) => [
        name,
        [...list].sort((a, b) => a.perSecond - b.perSecond)[
          Math.floor(list.length / 2)
        ],
      ]),
    ) as Record<string, Run>;
    const plainMedians = Object.fromEntries(
      [...plain].map(([name, list]) => [
        name,
        [...list].sort((a, b) => a.perSecond - b.perSecond)[
          Math.floor(list.length / 2)
        ],
      ]),
    ) as Record<string, Run>;
    const cpuMedian = (list: Run[]) =>
      list.map((r) => r.cpuUs).sort((a, b) => a - b)[
        Math.floor(list.length / 2)
      ];
    const load1 = loadavg()
      .map((n) => n.toFixed(2))
      .join(' ');
    console.log(
      [
        `ALTCHA verification: ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s, median round (load average ${load1})`,
        '',
        '| server  | verified/s |     p50 |     p99 | non-2xx | CPU µs each | without CAPTCHA/s | CPU µs each |',
        '|---------|------------|---------|---------|---------|-------------|-------------------|-------------|',
        ...Object.entries(medians).map(
          ([name, r]) =>
            `| ${name.padEnd(7)} | ${String(r.perSecond).padStart(10)} | ${String(r.p50).padStart(4)} ms | ${String(r.p99).padStart(4)} ms | ${String(r.non2xx + r.errors).padStart(7)} | ${cpuMedian(runs.get(name)!)} | ${plainMedians[name].perSecond} | ${cpuMedian(plain.get(name)!)} |`,
        ),
      ].join('\n'),
    );
    console.log(
      `BENCH_JSON ${JSON.stringify({ medians, plainMedians, loadavg: loadavg(), target: TARGET_PER_SECOND })}`,
    );
    const misses = Object.entries(medians).filter(
      ([, r]) => r.perSecond < TARGET_PER_SECOND || r.non2xx + r.errors > 0,
    );
    for (const [name, r] of misses) {
      log(
        `target missed: ${name} ${r.perSecond}/s (target ${TARGET_PER_SECOND}), ${r.non2xx + r.errors} non-2xx`,
      );
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
