// The first minutes with Formgate, as a person starting the built server sees them: one
// line saying where to go, readable logs on a terminal, settings from .env, the bare
// address leading to the dashboard, and a restart that does not rebuild.
import { spawn, spawnSync } from 'node:child_process';
import {
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  freePort,
  MAIN_JS,
  startServer,
  statusOf,
  waitFor,
  type ServerProcess,
} from '../../support/server-process.js';

const SECRET = 'startup-test-secret-startup-test-secret-0123';

async function stop(server: ServerProcess): Promise<void> {
  server.child.kill('SIGTERM');
  await server.exited;
}

function jsonLines(text: string): Array<Record<string, unknown>> {
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('starting the server', () => {
  let workdir: string;

  beforeEach(() => {
    workdir = mkdtempSync(join(tmpdir(), 'formgate-startup-'));
  });
  afterEach(() => {
    rmSync(workdir, { recursive: true, force: true });
  });

  it('logs one ready line naming the address, dashboard, API docs, database and the generated secret', async () => {
    const server = await startServer({}, { cwd: workdir });
    try {
      await waitFor(async () =>
        server.stdout().includes('Formgate is ready at'),
      );
      const lines = jsonLines(server.stdout());
      const ready = lines.filter((line) =>
        String(line.msg).startsWith('Formgate is ready'),
      );
      expect(ready).toHaveLength(1);
      expect(ready[0]).toMatchObject({ level: 30, service: 'formgate' });
      expect(ready[0].msg).toBe(
        `Formgate is ready at ${server.url} · dashboard ${server.url}/dashboard · ` +
          `API docs ${server.url}/docs · database SQLite ./data/formgate.sqlite · ` +
          'a new APP_SECRET was generated into ./data/secret (keep that file: it encrypts the stored API keys)',
      );
      // The ready line means ready: the database answers.
      expect(await statusOf(`${server.url}/health/ready`)).toBe(200);
      const secret = readFileSync(join(workdir, 'data', 'secret'), 'utf8');
      expect(secret.trim()).toMatch(/^[A-Za-z0-9_-]{43}$/);
      // No line per module and route at the default level.
      expect(server.stdout()).not.toMatch(/Mapped \{|dependencies initialized/);
      expect(lines.length).toBeLessThan(10);
    } finally {
      await stop(server);
    }

    // A restart finds the secret instead of generating one.
    const again = await startServer({}, { cwd: workdir });
    try {
      await waitFor(async () => again.stdout().includes('Formgate is ready'));
      expect(again.stdout()).toContain('APP_SECRET from ./data/secret');
    } finally {
      await stop(again);
    }
  });

  it('leads the bare address to the dashboard', async () => {
    const server = await startServer({ APP_SECRET: SECRET }, { cwd: workdir });
    try {
      await waitFor(
        async () => (await statusOf(`${server.url}/health/ready`)) === 200,
      );
      const root = await fetch(`${server.url}/`, { redirect: 'manual' });
      expect(root.status).toBe(302);
      expect(root.headers.get('location')).toBe('/dashboard');
      await root.arrayBuffer();
      const followed = await fetch(`${server.url}/`);
      expect(followed.status).toBe(200);
      expect(followed.url).toBe(`${server.url}/dashboard/login`);
      expect(followed.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await followed.text()).toContain('Log in to Formgate');
    } finally {
      await stop(server);
    }
  });

  it('says it is waiting when the database is down, without claiming to be ready', async () => {
    const server = await startServer(
      {
        APP_SECRET: SECRET,
        DATABASE_URL: 'mysql://root:pw@127.0.0.1:1/formgate',
      },
      { cwd: workdir },
    );
    try {
      await waitFor(async () =>
        server.stdout().includes('waiting for the database'),
      );
      const waiting = jsonLines(server.stdout()).find((line) =>
        String(line.msg).includes('waiting for the database'),
      )!;
      expect(waiting.level).toBe(40);
      expect(waiting.msg).toBe(
        `Listening at ${server.url}, waiting for the database (MySQL root@127.0.0.1:1/formgate): ` +
          'requests that need it answer 503 until it connects',
      );
      expect(server.stdout()).not.toContain('Formgate is ready');
      expect(server.stdout()).not.toContain(':pw@');
    } finally {
      await stop(server);
    }
  });

  it('reads .env from the working directory, the real environment winning', async () => {
    const port = await freePort();
    writeFileSync(
      join(workdir, '.env'),
      ['PORT=1', 'SIGNUP_ENABLED=false', `APP_SECRET=${SECRET}`, ''].join('\n'),
    );
    const server = await startServer({ PORT: String(port) }, { cwd: workdir });
    try {
      await waitFor(async () => server.stdout().includes('Formgate is ready'));
      // PORT came from the environment, SIGNUP_ENABLED and APP_SECRET from the file.
      expect(server.url).toBe(`http://127.0.0.1:${port}`);
      const signup = await fetch(`${server.url}/dashboard/signup`);
      expect(signup.status).toBe(200);
      expect(await signup.text()).toMatch(/sign-up is (off|turned off)/i);
      const ready = jsonLines(server.stdout()).find((line) =>
        String(line.msg).startsWith('Formgate is ready'),
      )!;
      expect(ready.msg).toMatch(
        / · APP_SECRET from the environment · settings from \.\/\.env$/,
      );
    } finally {
      await stop(server);
    }
  });

  it('refuses a bad value from .env and says it came from there', async () => {
    writeFileSync(join(workdir, '.env'), 'TRUST_PROXY=everyone\n');
    const server = await startServer({ APP_SECRET: SECRET }, { cwd: workdir });
    expect(await server.exited).toBe(1);
    expect(server.stderr()).toContain('TRUST_PROXY');
    expect(server.stderr()).toContain('(set in .env)');
    expect(server.stdout()).toBe('');
  });

  it('writes readable lines, not JSON, when stdout is a terminal', async () => {
    const port = await freePort();
    // `script` gives the server a pseudo-terminal, as a shell would.
    const child = spawn(
      'script',
      [
        '-qefc',
        `${JSON.stringify(process.execPath)} ${JSON.stringify(MAIN_JS)}`,
        '/dev/null',
      ],
      {
        cwd: workdir,
        env: {
          PATH: process.env.PATH ?? '',
          HOST: '127.0.0.1',
          PORT: String(port),
          APP_SECRET: SECRET,
          NO_COLOR: '1',
        },
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const exited = new Promise((done) => child.on('exit', done));
    try {
      await waitFor(async () => out.includes('Formgate is ready'));
      await statusOf(`http://127.0.0.1:${port}/health/live`);
      await waitFor(async () => out.includes('GET /health/live'));
      const lines = out.split(/\r?\n/).filter(Boolean);
      for (const line of lines) expect(line).not.toMatch(/^\{/);
      expect(lines.find((line) => line.includes('Formgate is ready'))).toMatch(
        /^\[\d\d:\d\d:\d\d\] INFO: Formgate is ready at http:\/\/127\.0\.0\.1:\d+ · /,
      );
      expect(out).toMatch(/INFO: GET \/health\/live → 200 \(\d+ ms\)/);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  });
});

describe('npm start on an unchanged checkout', () => {
  const BUILD_SCRIPT = resolve('scripts/build.mjs');

  it('does not rebuild when the sources have not changed since the last build', () => {
    // npm test built first (pretest), so the build is current.
    const before = statSync(MAIN_JS).mtimeMs;
    const started = Date.now();
    const result = spawnSync(process.execPath, [BUILD_SCRIPT, '--if-stale'], {
      encoding: 'utf8',
    });
    expect(result.status).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('');
    expect(Date.now() - started).toBeLessThan(3000);
    expect(statSync(MAIN_JS).mtimeMs).toBe(before);
  });

  it('sees any change of a source, template or build setting, but not of a unit spec', () => {
    const root = mkdtempSync(join(tmpdir(), 'formgate-fingerprint-'));
    try {
      const write = (path: string, text: string, mtime: number) => {
        const file = join(root, path);
        spawnSync('mkdir', ['-p', join(file, '..')]);
        writeFileSync(file, text);
        const at = new Date(mtime);
        spawnSync('touch', ['-d', at.toISOString(), file]);
      };
      write('src/main.ts', 'one', 1_700_000_000_000);
      write('src/dashboard/views/page.eta', '<p>', 1_700_000_000_000);
      write('src/main.spec.ts', 'spec', 1_700_000_000_000);
      write('package.json', '{}', 1_700_000_000_000);
      const fingerprint = () =>
        spawnSync(
          process.execPath,
          [
            '--input-type=module',
            '-e',
            `const m = await import(${JSON.stringify(BUILD_SCRIPT)}); console.log(m.sourceFingerprint(${JSON.stringify(root)}))`,
          ],
          { encoding: 'utf8' },
        ).stdout.trim();
      const first = fingerprint();
      expect(first).toMatch(/^[0-9a-f]{64}$/);
      expect(fingerprint()).toBe(first);
      write('src/main.spec.ts', 'spec changed', 1_700_000_100_000);
      expect(fingerprint()).toBe(first);
      write('src/dashboard/views/page.eta', '<p>!', 1_700_000_100_000);
      const second = fingerprint();
      expect(second).not.toBe(first);
      write('package.json', '{ }', 1_700_000_200_000);
      expect(fingerprint()).not.toBe(second);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
