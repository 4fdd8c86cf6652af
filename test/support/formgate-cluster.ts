// Several Formgate instances as an operator runs them behind a proxy: the built server
// (dist/src/main.js) in child processes sharing one MySQL/MariaDB database and one Redis,
// migrated once beforehand by the one-shot migration command (as docker-compose.yml's
// `migrate` service does), with nginx in front.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createConnection, type Connection } from 'mysql2/promise';
import {
  startNginx,
  UPSTREAM_HEADER,
  type ReverseProxy,
} from '../../tools/shared/nginx.js';
import {
  assertBuilt,
  freePort,
  startServer,
  waitForOutput,
  type ServerProcess,
} from './server-process.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

const MIGRATE_JS = resolve('dist/src/database/migrate.js');
const CLI_JS = resolve('dist/src/cli.js');
const READY_LINE = /Formgate is ready at /;
/** A start takes a second or two; a machine busy with other tests may take much longer. */
export const STARTUP_TIMEOUT_MS = 60_000;

export interface Instance {
  /** a, b, c … */
  name: string;
  /** host:port, as the proxy names it in its X-Upstream header. */
  address: string;
  /** http://host:port: this instance directly, bypassing the proxy. */
  url: string;
  process: ServerProcess;
}

export interface Cluster {
  instances: Instance[];
  proxy: ReverseProxy;
  /** Settings every instance runs with. */
  env: Record<string, string>;
  /** The redis key prefix of this cluster (in REDIS_URL as ?keyPrefix=). */
  redisKeyPrefix: string;
  /** A connection to the cluster's database, for checks of what is stored. */
  db: Connection;
  /** The instance that answered a response received through the proxy (the last one tried). */
  answeredBy(response: { headers: Headers }): Instance | undefined;
  /** Runs `node dist/src/cli.js …args` against the cluster's database; its last JSON line. */
  cli<T>(args: string[]): Promise<T>;
  close(): Promise<void>;
}

function runNode(
  script: string,
  args: string[],
  env: Record<string, string>,
  cwd: string,
): Promise<string> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, [script, ...args], {
      cwd,
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code === 0) resolveRun(out);
      else {
        reject(new Error(`${script} ${args.join(' ')} exited ${code}: ${err}`));
      }
    });
  });
}

/** Distinct free ports (two quick asks of the kernel could, rarely, get the same one). */
async function freePorts(count: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < count) ports.add(await freePort());
  return [...ports];
}

/**
 * Starts `count` instances (in parallel, each ready once it logs its ready line) and nginx
 * in front of them. `env` adds to or overrides the instances' settings.
 */
export async function startCluster(
  count: number,
  env: Record<string, string>,
): Promise<Cluster> {
  assertBuilt();
  const redisUrl = process.env.TEST_REDIS_URL;
  if (!redisUrl) throw new Error('TEST_REDIS_URL is not set');
  const workdir = mkdtempSync(join(tmpdir(), 'formgate-cluster-'));
  const redisKeyPrefix = `formgate-test-${process.pid}-${randomBytes(4).toString('hex')}:`;
  const redis = new URL(redisUrl);
  redis.searchParams.set('keyPrefix', redisKeyPrefix);
  let database: TestDatabase | undefined;
  let proxy: ReverseProxy | undefined;
  let proxyStarting: Promise<ReverseProxy> | undefined;
  const started: ServerProcess[] = [];
  const close = async () => {
    // A proxy still starting when an instance failed is stopped once it runs.
    await proxyStarting?.catch(() => undefined);
    await proxy?.stop();
    await Promise.all(
      started.map(async (server) => {
        if (
          server.child.exitCode === null &&
          server.child.signalCode === null
        ) {
          server.child.kill('SIGTERM');
        }
        await server.exited;
      }),
    );
    await database?.drop();
    rmSync(workdir, { recursive: true, force: true });
  };
  try {
    database = await createTestDatabase();
    const [proxyPort, ...ports] = await freePorts(count + 1);
    const shared: Record<string, string> = {
      APP_SECRET: 'scale-out-secret-scale-out-secret-scale-out-0123',
      DATABASE_URL: database.url,
      REDIS_URL: redis.toString(),
      MIGRATIONS_RUN: 'false',
      // The proxy connects from 127.0.0.1: only that address may speak for a client.
      TRUST_PROXY: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${proxyPort}`,
      LOG_LEVEL: 'info',
      ...env,
    };
    await runNode(MIGRATE_JS, [], shared, workdir);
    const addresses = ports.map((port) => `127.0.0.1:${port}`);
    const [instances, nginx] = await Promise.all([
      Promise.all(
        ports.map(async (port, i) => {
          const server = await startServer(
            { ...shared, PORT: String(port) },
            { cwd: workdir },
          );
          started.push(server);
          await waitForOutput(server, READY_LINE, STARTUP_TIMEOUT_MS);
          return {
            name: String.fromCharCode(97 + i),
            address: addresses[i],
            url: server.url,
            process: server,
          } satisfies Instance;
        }),
      ),
      (proxyStarting = startNginx(addresses, proxyPort).then((running) => {
        proxy = running;
        return running;
      })),
    ]);
    const url = new URL(database.url);
    const db = await createConnection({
      host: url.hostname,
      port: Number(url.port || 3306),
      user: decodeURIComponent(url.username),
      password: decodeURIComponent(url.password),
      database: url.pathname.slice(1),
      timezone: 'Z',
    });
    return {
      instances,
      proxy: nginx,
      env: shared,
      redisKeyPrefix,
      db,
      answeredBy(response) {
        const tried = (response.headers.get(UPSTREAM_HEADER) ?? '').split(', ');
        return instances.find((i) => i.address === tried[tried.length - 1]);
      },
      async cli<T>(args: string[]) {
        const out = await runNode(CLI_JS, args, shared, workdir);
        return JSON.parse(out.trim().split('\n').pop()!) as T;
      },
      async close() {
        await db.end();
        await close();
      },
    };
  } catch (error) {
    await close();
    throw error;
  }
}
