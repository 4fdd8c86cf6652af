// Scale benchmark (npm run bench:scale): one Formgate instance against three behind nginx,
// side by side on this machine, on one MariaDB/MySQL database and one Redis.
//
// This is not a throughput curve. Every process here — the instances, nginx, the database,
// Redis and the load generator — shares the machine's cores, so three instances cannot go
// faster than one once the cores are busy. What it measures is what each piece costs per
// submission (CPU milliseconds of the instances, nginx, the database server and Redis, read
// from /proc), and what one instance and three sustain here: from those, what binds first on
// larger machines can be worked out (docs/scaling.md).
//
// Three instances are started once (sharing the database and Redis, TRUST_PROXY set, the
// rate limit on but never reached), with two nginx proxies in front: one over instance a
// alone, one over a, b and c. Rounds alternate between them (BENCH_ROUNDS, default 3, of
// BENCH_SECONDS, default 10, with BENCH_CONNECTIONS connections, default 32), so machine
// noise falls on both alike; the median round of each is reported. BENCH_MARIADB_URL
// (default mariadb://root@127.0.0.1:3306) names the server (database formgate_bench_scale,
// made afresh); BENCH_REDIS_URL (default redis://127.0.0.1:6379) the Redis. Prints a table
// and a BENCH_JSON line.
import autocannon from 'autocannon';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { availableParallelism, loadavg } from 'node:os';
import { ensureDatabase } from '../shared/mysql.js';
import { startNginx, type ReverseProxy } from '../shared/nginx.js';
import {
  BENCH_SECRET,
  CLI_JS,
  freePort,
  log,
  MAIN_JS,
  procCpuMs,
  sleep,
  stopChild,
  waitFor,
} from '../shared/process.js';

const env = process.env;
const MARIADB = env.BENCH_MARIADB_URL ?? 'mariadb://root@127.0.0.1:3306';
const REDIS = env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const CONNECTIONS = Number(env.BENCH_CONNECTIONS ?? 32);
const SECONDS = Number(env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(env.BENCH_ROUNDS ?? 3);
const WARMUP_SECONDS = 3;

const FIELDS = [
  { id: 'name', type: 'text', required: true },
  { id: 'email', type: 'email', required: true },
  { id: 'message', type: 'textarea' },
];
const BODY = JSON.stringify({
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  message: 'Hello! I would like to hear more about your analytical engine.',
});

interface Instance {
  name: string;
  port: number;
  child: ChildProcess;
}

interface Round {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  failed: number;
  /** CPU ms per submission, by process. */
  cpuPerSubmission: Record<string, number>;
  /** Share of the machine's cores used over the round. */
  machineBusy: number;
}

/** pids of a program's processes (`pidof`), or none. */
function pidsOf(program: string): number[] {
  try {
    return execFileSync('pidof', [program], { encoding: 'utf8' })
      .trim()
      .split(/\s+/)
      .map(Number);
  } catch {
    return [];
  }
}

/** CPU ms used so far by each named group of processes. */
function cpuNow(groups: Record<string, number[]>): Record<string, number> {
  return Object.fromEntries(
    Object.entries(groups).map(([name, pids]) => [
      name,
      pids.reduce((sum, pid) => {
        try {
          return sum + procCpuMs(pid);
        } catch {
          return sum;
        }
      }, 0),
    ]),
  );
}

/** CPU ms of the whole machine so far (all cores, busy time), from /proc/stat. */
function machineBusyMs(): number {
  const line = execFileSync('head', ['-1', '/proc/stat'], { encoding: 'utf8' });
  const [user, nice, system, , , irq, softirq, steal] = line
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  return (user + nice + system + irq + softirq + steal) * 10;
}

async function startInstance(
  name: string,
  shared: NodeJS.ProcessEnv,
): Promise<Instance> {
  const port = await freePort();
  const child = spawn(process.execPath, [MAIN_JS], {
    env: { ...shared, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
    // A session of its own, as a service manager would start it (see startServer).
    detached: true,
  });
  await waitFor(`http://127.0.0.1:${port}/health/ready`, { child });
  return { name, port, child };
}

function run(script: string, args: string[], childEnv: NodeJS.ProcessEnv) {
  return execFileSync(process.execPath, [script, ...args], {
    env: childEnv,
    encoding: 'utf8',
  });
}

async function load(
  proxy: ReverseProxy,
  formId: string,
  seconds: number,
  cpuGroups: Record<string, number[]>,
): Promise<Round> {
  const cpuBefore = cpuNow(cpuGroups);
  const busyBefore = machineBusyMs();
  const started = performance.now();
  const result = await autocannon({
    url: `${proxy.url}/api/submit/${formId}`,
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      origin: 'https://www.example.com',
      'user-agent': 'Mozilla/5.0 (bench)',
    },
    body: BODY,
    connections: CONNECTIONS,
    duration: seconds,
  });
  const wallMs = performance.now() - started;
  const cpuAfter = cpuNow(cpuGroups);
  const busy = machineBusyMs() - busyBefore;
  const ok = result['2xx'];
  return {
    requestsPerSecond: Math.round(ok / (wallMs / 1000)),
    p50: result.latency.p50,
    p99: result.latency.p99,
    failed: result.non2xx + result.errors + result.timeouts,
    cpuPerSubmission: Object.fromEntries(
      Object.keys(cpuGroups).map((name) => [
        name,
        Math.round(
          ((cpuAfter[name] - cpuBefore[name]) / Math.max(ok, 1)) * 100,
        ) / 100,
      ]),
    ),
    machineBusy:
      Math.round((busy / (wallMs * availableParallelism())) * 100) / 100,
  };
}

function median(rounds: Round[]): Round {
  const sorted = [...rounds].sort(
    (a, b) => a.requestsPerSecond - b.requestsPerSecond,
  );
  return sorted[Math.floor(sorted.length / 2)];
}

async function main(): Promise<void> {
  const databaseUrl = await ensureDatabase(MARIADB, 'formgate_bench_scale', {
    recreate: true,
  });
  const redis = new URL(REDIS);
  redis.searchParams.set(
    'keyPrefix',
    `formgate-bench-scale-${randomBytes(4).toString('hex')}:`,
  );
  const shared: NodeJS.ProcessEnv = {
    PATH: env.PATH,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    REDIS_URL: redis.toString(),
    APP_SECRET: BENCH_SECRET,
    MIGRATIONS_RUN: 'false',
    TRUST_PROXY: '127.0.0.1',
    // Counted on every request, never reached.
    SUBMIT_RATE_LIMIT: '1000000',
    SUBMIT_RATE_WINDOW_SECONDS: '10',
    LOG_LEVEL: env.BENCH_LOG_LEVEL ?? 'warn',
  };
  log('migrating, then starting three instances');
  run(MAIN_JS.replace(/main\.js$/, 'database/migrate.js'), [], shared);
  const instances = await Promise.all(
    ['a', 'b', 'c'].map((name) => startInstance(name, shared)),
  );
  const proxies: ReverseProxy[] = [];
  try {
    const address = (i: Instance) => `127.0.0.1:${i.port}`;
    const one = await startNginx([address(instances[0])]);
    proxies.push(one);
    const three = await startNginx(instances.map(address));
    proxies.push(three);
    const cli = run(
      CLI_JS,
      [
        'accounts:create',
        '--email',
        `bench-scale-${Date.now()}@example.com`,
        '--password',
        'bench-password-long-enough-1',
      ],
      shared,
    );
    const { apiKey } = JSON.parse(cli.trim().split('\n').pop()!) as {
      apiKey: string;
    };
    const created = await fetch(`${three.url}/api/v1/forms`, {
      method: 'POST',
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Bench contact form', fields: FIELDS }),
    });
    if (created.status !== 201) {
      throw new Error(`form creation: ${created.status}`);
    }
    const { id: formId } = (await created.json()) as { id: string };

    const nginxPids = (proxy: ReverseProxy) => [
      proxy.child.pid!,
      ...[...proxy.log().matchAll(/start worker process (\d+)/g)].map((m) =>
        Number(m[1]),
      ),
    ];
    const database = pidsOf('mariadbd').concat(pidsOf('mysqld'));
    const groups = (proxy: ReverseProxy, running: Instance[]) => ({
      ...Object.fromEntries(
        running.map((i) => [`instance ${i.name}`, [i.child.pid!]]),
      ),
      nginx: nginxPids(proxy),
      database,
      redis: pidsOf('redis-server'),
      'load generator': [process.pid],
    });
    const configs = [
      {
        name: 'one instance',
        proxy: one,
        groups: groups(one, instances.slice(0, 1)),
      },
      {
        name: 'three instances',
        proxy: three,
        groups: groups(three, instances),
      },
    ];
    const loadBefore = loadavg()[0];
    log(`warming up (${WARMUP_SECONDS} s each)`);
    for (const config of configs) {
      await load(config.proxy, formId, WARMUP_SECONDS, config.groups);
    }
    const rounds = new Map<string, Round[]>(configs.map((c) => [c.name, []]));
    for (let round = 1; round <= ROUNDS; round += 1) {
      // Alternate which goes first, so neither always follows the other's backlog.
      const order = round % 2 === 1 ? configs : [...configs].reverse();
      for (const config of order) {
        const result = await load(config.proxy, formId, SECONDS, config.groups);
        rounds.get(config.name)!.push(result);
        log(
          `round ${round} ${config.name.padEnd(15)} ${String(result.requestsPerSecond).padStart(6)} submissions/s  p50 ${result.p50} ms  p99 ${result.p99} ms  failed ${result.failed}  machine busy ${Math.round(result.machineBusy * 100)} %`,
        );
        // Let the outbox and the commit queues settle between rounds.
        await sleep(1000);
      }
    }
    const loadAfter = loadavg()[0];
    const results = Object.fromEntries(
      configs.map((c) => [c.name, median(rounds.get(c.name)!)]),
    ) as Record<string, Round>;
    const lines = [
      `Scale benchmark: ${CONNECTIONS} connections through nginx, ${ROUNDS} rounds of ${SECONDS} s, median round; ${availableParallelism()} cores; load average ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after`,
      '',
      '| setup           | submissions/s | per instance |   p50 |   p99 | failed | machine busy |',
      '|-----------------|---------------|--------------|-------|-------|--------|--------------|',
      ...configs.map((c) => {
        const r = results[c.name];
        const count = c.name === 'one instance' ? 1 : 3;
        return `| ${c.name.padEnd(15)} | ${String(r.requestsPerSecond).padStart(13)} | ${String(Math.round(r.requestsPerSecond / count)).padStart(12)} | ${String(r.p50).padStart(5)} | ${String(r.p99).padStart(5)} | ${String(r.failed).padStart(6)} | ${String(Math.round(r.machineBusy * 100)).padStart(10)} % |`;
      }),
      '',
      'CPU milliseconds per submission, by process:',
      ...configs.map(
        (c) =>
          `  ${c.name}: ${Object.entries(results[c.name].cpuPerSubmission)
            .map(([name, ms]) => `${name} ${ms}`)
            .join(', ')}`,
      ),
    ];
    console.log(lines.join('\n'));
    console.log(
      `BENCH_JSON ${JSON.stringify({ connections: CONNECTIONS, seconds: SECONDS, rounds: ROUNDS, loadBefore, loadAfter, results })}`,
    );
  } finally {
    for (const proxy of proxies) await proxy.stop();
    await Promise.all(instances.map((i) => stopChild(i.child)));
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    log(
      error instanceof Error ? (error.stack ?? error.message) : String(error),
    );
    process.exit(1);
  },
);
