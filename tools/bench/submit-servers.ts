// The processes the submit benchmarks load: Formgate from the built dist/, and the bare
// servers it is measured against (floor-server.ts, ceiling-server.ts).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import {
  BENCH_SECRET,
  CLI_JS,
  freePort,
  log,
  MAIN_JS,
  sleep,
  waitFor,
} from '../shared/process.js';

const env = process.env;

export const FIELDS = [
  { id: 'name', type: 'text', required: true },
  { id: 'email', type: 'email', required: true },
  { id: 'message', type: 'textarea' },
];
export const BODY = JSON.stringify({
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  message: 'Hello! I would like to hear more about your analytical engine.',
});

export interface Server {
  name: string;
  url: string;
  child: ChildProcess;
  formId: string;
  /** The submit route loaded: /api/submit/ unless given. */
  route?: '/api/submit/' | '/f/';
}

export function formgateEnv(
  databaseUrl: string,
  port: number,
): NodeJS.ProcessEnv {
  return {
    PATH: env.PATH,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    DATABASE_URL: databaseUrl,
    APP_SECRET: BENCH_SECRET,
    // The limit stays on (every request is counted) but never refuses the load.
    SUBMIT_RATE_LIMIT: '1000000',
    SUBMIT_RATE_WINDOW_SECONDS: '10',
    LOG_LEVEL: env.BENCH_LOG_LEVEL ?? 'info',
  };
}

function spawnQuiet(
  script: string,
  childEnv: NodeJS.ProcessEnv,
  node = process.execPath,
): ChildProcess {
  const child = spawn(node, [script], {
    env: childEnv,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  child.on('exit', (code, signal) => {
    if (code && code !== 0) log(`${script} exited with ${code ?? signal}`);
  });
  return child;
}

/** Formgate on `databaseUrl`, run by the Node binary `node` (this one unless given). */
export async function startFormgate(
  name: string,
  databaseUrl: string,
  node = process.execPath,
): Promise<Server & { startMs: number }> {
  const port = await freePort();
  const started = performance.now();
  const child = spawnQuiet(MAIN_JS, formgateEnv(databaseUrl, port), node);
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/health/ready`, { child });
  const startMs = Math.round(performance.now() - started);
  return { name, url, child, formId: '', startMs };
}

/** An account through the operator CLI, then a form through the API, as an owner would. */
export async function createForm(
  server: Server,
  databaseUrl: string,
  fields: unknown[] = FIELDS,
): Promise<void> {
  const cli = spawnSync(
    process.execPath,
    [
      CLI_JS,
      'accounts:create',
      '--email',
      `bench-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`,
      '--password',
      'bench-password-long-enough-1',
    ],
    { env: formgateEnv(databaseUrl, 0), encoding: 'utf8' },
  );
  if (cli.status !== 0) throw new Error(`cli failed: ${cli.stderr}`);
  const lines = cli.stdout.trim().split('\n');
  const { apiKey } = JSON.parse(lines[lines.length - 1]) as { apiKey: string };
  const response = await fetch(`${server.url}/api/v1/forms`, {
    method: 'POST',
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Bench contact form', fields }),
  });
  if (response.status !== 201) {
    throw new Error(
      `form creation: ${response.status} ${await response.text()}`,
    );
  }
  server.formId = ((await response.json()) as { id: string }).id;
}

const BARE_SERVERS = {
  floor: {
    script: fileURLToPath(new URL('./floor-server.js', import.meta.url)),
    prefix: 'FLOOR',
  },
  ceiling: {
    script: fileURLToPath(new URL('./ceiling-server.js', import.meta.url)),
    prefix: 'CEILING',
  },
} as const;

/**
 * A bare server (the floor, or a ceiling) on `databaseUrl`, serving the form `formId`;
 * `extraEnv` names are given the server's prefix (SOURCE → CEILING_SOURCE).
 */
export async function startBare(
  name: string,
  kind: keyof typeof BARE_SERVERS,
  databaseUrl: string,
  formId: string,
  extraEnv: Record<string, string> = {},
): Promise<Server> {
  const { script, prefix } = BARE_SERVERS[kind];
  const port = await freePort();
  const child = spawnQuiet(script, {
    PATH: env.PATH,
    [`${prefix}_DATABASE_URL`]: databaseUrl,
    [`${prefix}_FORM_ID`]: formId,
    [`${prefix}_PORT`]: String(port),
    ...Object.fromEntries(
      Object.entries(extraEnv).map(([key, value]) => [
        `${prefix}_${key}`,
        value,
      ]),
    ),
  });
  const url = `http://127.0.0.1:${port}`;
  // A bare server has no health route: wait until it answers a submit.
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      const response = await fetch(`${url}/api/submit/${formId}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: BODY,
      });
      await response.arrayBuffer();
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null) throw new Error(`${name} exited`);
    if (Date.now() > deadline) throw new Error(`${name} never answered`);
    await sleep(50);
  }
  return { name, url, child, formId };
}

export async function stop(server: Server): Promise<void> {
  if (server.child.exitCode !== null) return;
  const exited = new Promise((r) => server.child.once('exit', r));
  server.child.kill('SIGTERM');
  await Promise.race([exited, sleep(10_000)]);
  if (server.child.exitCode === null) server.child.kill('SIGKILL');
}
