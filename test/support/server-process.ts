// Runs the built server (dist/src/main.js) as a child process, as `npm start` would.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';

export const MAIN_JS = resolve('dist/src/main.js');

export function assertBuilt(): void {
  if (!existsSync(MAIN_JS)) {
    throw new Error(
      `${MAIN_JS} is missing: run "npm run build" first (npm test does it)`,
    );
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
    server.on('error', reject);
  });
}

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

export async function startServer(
  env: Record<string, string>,
  options: { cwd?: string } = {},
): Promise<ServerProcess> {
  assertBuilt();
  const port = env.PORT ?? String(await freePort());
  const child = spawn(process.execPath, [MAIN_JS], {
    cwd: options.cwd,
    env: {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      ...env,
      PORT: port,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<number | null>((resolveExit) =>
    child.on('exit', resolveExit),
  );
  return {
    child,
    url: `http://127.0.0.1:${port}`,
    stdout: () => out,
    stderr: () => err,
    exited,
  };
}

/** Polls until `check` resolves true, or fails after `timeoutMs`. */
export async function waitFor(
  check: () => Promise<boolean>,
  timeoutMs = 20_000,
  what = 'condition',
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

export async function statusOf(url: string): Promise<number> {
  const response = await fetch(url);
  await response.arrayBuffer();
  return response.status;
}

/**
 * Resolves when the process prints a line matching `pattern` on stdout (e.g. its ready
 * line); fails if it exits first or `timeoutMs` passes.
 */
export function waitForOutput(
  server: ServerProcess,
  pattern: RegExp,
  timeoutMs = 30_000,
): Promise<void> {
  return new Promise((resolveOutput, reject) => {
    const stdout = server.child.stdout!;
    const check = () => {
      if (!pattern.test(server.stdout())) return;
      done();
      resolveOutput();
    };
    const exited = (code: number | null) => {
      done();
      reject(
        new Error(
          `Exited with ${code} before printing ${pattern}: ${server.stderr().slice(-2000)}`,
        ),
      );
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`Timed out waiting for ${pattern} on stdout`));
    }, timeoutMs);
    const done = () => {
      clearTimeout(timer);
      stdout.off('data', check);
      server.child.off('exit', exited);
    };
    // After the buffer's own listener (registered first), so the text is there.
    stdout.on('data', check);
    server.child.on('exit', exited);
    if (pattern.test(server.stdout())) check();
    else if (server.child.exitCode !== null) exited(server.child.exitCode);
  });
}
