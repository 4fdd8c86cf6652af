// Helpers every benchmark shares: progress lines on stderr, a free loopback port, and a
// Formgate server started as a child process from the built dist/.
import {
  spawn,
  type ChildProcess,
  type StdioOptions,
} from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root: this file runs as dist-tools/tools/shared/process.js. */
export const ROOT = resolve(
  fileURLToPath(new URL('../../..', import.meta.url)),
);
/** The server as `npm run build` leaves it. */
export const MAIN_JS = join(ROOT, 'dist/src/main.js');
/** The CLI as `npm run build` leaves it. */
export const CLI_JS = join(ROOT, 'dist/src/cli.js');
/** APP_SECRET of every benchmark server and of the data they prepare. */
export const BENCH_SECRET =
  'formgate-bench-secret-not-for-production-0123456789';

/** Progress and diagnostics go to stderr; stdout keeps the results. */
export function log(message: string): void {
  process.stderr.write(`${message}\n`);
}

export const sleep = (ms: number): Promise<void> =>
  new Promise((done) => setTimeout(done, ms));

/** A TCP port on 127.0.0.1 that nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => done(port));
    });
    server.on('error', fail);
  });
}

/** Resolves once `url` answers 2xx; fails after `timeoutMs` or when `child` exits first. */
export async function waitFor(
  url: string,
  {
    timeoutMs = 30_000,
    intervalMs = 10,
    child,
  }: { timeoutMs?: number; intervalMs?: number; child?: ChildProcess } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child && child.exitCode !== null) {
      throw new Error(`Server exited with ${child.exitCode}`);
    }
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} never became ready`);
    await sleep(intervalMs);
  }
}

/** A field of /proc/<pid>/status in MB (Linux): VmRSS now, VmHWM its peak. */
export function procStatusMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  return match ? Number(match[1]) / 1024 : NaN;
}

/** CPU time a process has used so far, all its threads, user and system (Linux), in ms. */
export function procCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces): utime and stime are 14 and 15,
  // in clock ticks of 10 ms.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

export interface StartedServer {
  child: ChildProcess;
  url: string;
}

/**
 * Starts dist/src/main.js on a free port with `env` (PATH, NODE_ENV=production, HOST and
 * PORT added) and resolves once /health/ready answers; kills it when it never does.
 */
export async function startServer({
  env,
  nodeArgs = [],
  stdio = ['ignore', 'inherit', 'inherit'],
  timeoutMs = 60_000,
  ownSession = false,
}: {
  env: NodeJS.ProcessEnv;
  nodeArgs?: string[];
  stdio?: StdioOptions;
  timeoutMs?: number;
  /**
   * Starts the server in a session of its own, as a service manager would. Linux's
   * autogroup scheduling shares the CPU between sessions first: in the benchmark's
   * session the server would split one share with the load it is measured under.
   */
  ownSession?: boolean;
}): Promise<StartedServer> {
  const port = await freePort();
  const child = spawn(process.execPath, [...nodeArgs, MAIN_JS], {
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      ...env,
    },
    stdio,
    detached: ownSession,
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitFor(`${url}/health/ready`, { timeoutMs, intervalMs: 200, child });
  } catch (error) {
    child.kill('SIGTERM');
    throw error;
  }
  return { child, url };
}

/** Sends SIGTERM and resolves when the child has exited. */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((done) => child.once('exit', done));
  child.kill('SIGTERM');
  await exited;
}
