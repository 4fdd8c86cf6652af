// The server as an operator runs it: the built artifact in a child process.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  startServer,
  statusOf,
  waitFor,
} from '../../support/server-process.js';

const SECRET = 'process-test-secret-process-test-secret-0123';

describe('the server process', () => {
  let workdir: string;

  beforeEach(() => {
    workdir = mkdtempSync(join(tmpdir(), 'formgate-process-'));
  });
  afterEach(() => {
    rmSync(workdir, { recursive: true, force: true });
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ DATABASE_URL: 'ftp://x' }, 'DATABASE_URL'],
    [{ TRUST_PROXY: 'everyone' }, 'TRUST_PROXY'],
  ])('refuses to start with %j and names %s', async (env, variable) => {
    const server = await startServer(
      { APP_SECRET: SECRET, ...env },
      { cwd: workdir },
    );
    const code = await server.exited;
    expect(code).not.toBe(0);
    expect(server.stderr()).toContain(variable);
  });

  it('starts on a fresh machine with the embedded SQLite default', async () => {
    const server = await startServer({}, { cwd: workdir });
    try {
      await waitFor(
        async () => (await statusOf(`${server.url}/health/ready`)) === 200,
      );
      expect(await statusOf(`${server.url}/health/live`)).toBe(200);
      expect(existsSync(join(workdir, 'data', 'formgate.sqlite'))).toBe(true);
      expect(existsSync(join(workdir, 'data', 'secret'))).toBe(true);
      // Logs are JSON lines.
      const firstLine = server.stdout().split('\n').find(Boolean)!;
      expect(() => JSON.parse(firstLine)).not.toThrow();
    } finally {
      server.child.kill('SIGKILL');
      await server.exited;
    }
  });

  it('stays up but not ready while the database is unreachable', async () => {
    const server = await startServer(
      { APP_SECRET: SECRET, DATABASE_URL: 'mysql://root@127.0.0.1:1/formgate' },
      { cwd: workdir },
    );
    try {
      await waitFor(
        async () => (await statusOf(`${server.url}/health/live`)) === 200,
      );
      const ready = await fetch(`${server.url}/health/ready`);
      expect(ready.status).toBe(503);
      expect(ready.headers.get('retry-after')).toBe('5');
      expect(await ready.json()).toEqual({ error: 'Database unavailable' });
      const api = await fetch(`${server.url}/api/v1/forms`, {
        headers: { 'x-api-key': 'fgk_' + 'a'.repeat(43) },
      });
      expect(api.status).toBe(503);
      expect(api.headers.get('retry-after')).toBe('5');
      expect(Object.keys((await api.json()) as object)).toEqual(['error']);
    } finally {
      server.child.kill('SIGKILL');
      await server.exited;
    }
  });

  it('finishes an in-flight request on SIGTERM, then exits 0', async () => {
    const server = await startServer(
      {
        APP_SECRET: SECRET,
        DATABASE_URL: `sqlite:${join(workdir, 'db.sqlite')}`,
      },
      { cwd: workdir },
    );
    await waitFor(
      async () => (await statusOf(`${server.url}/health/ready`)) === 200,
    );
    const { port } = new URL(server.url);
    // A request whose body is still arriving when the signal comes.
    const pending = new Promise<number>((resolveStatus, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/api/v1/forms',
          headers: {
            'content-type': 'application/json',
            'content-length': '15',
          },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolveStatus(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.write('{"name":');
      setTimeout(() => {
        server.child.kill('SIGTERM');
        setTimeout(() => req.end('"x"}   '), 300);
      }, 100);
    });
    const status = await pending;
    // The request was answered (not reset): 401, since it carries no API key.
    expect(status).toBe(401);
    expect(await server.exited).toBe(0);
    expect(server.stdout()).toContain('Received SIGTERM');
  });
});
