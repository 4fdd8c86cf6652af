// The server as an operator runs it: the built artifact in a child process.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { loadConfig } from '../src/config/app-config.js';
import { buildDataSourceOptions } from '../src/database/database-options.js';
import { startServer, statusOf, waitFor } from './support/server-process.js';

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

  it('loses no acknowledged submission when killed with SIGKILL', async () => {
    const databaseUrl = `sqlite:${join(workdir, 'durable.sqlite')}`;
    const env = {
      APP_SECRET: SECRET,
      DATABASE_URL: databaseUrl,
      SUBMIT_RATE_LIMIT: '100000',
    };
    const server = await startServer(env, { cwd: workdir });
    await waitFor(
      async () => (await statusOf(`${server.url}/health/ready`)) === 200,
    );
    // A form created through the running server's own database file.
    const admin = new DataSource(
      buildDataSourceOptions(loadConfig({ ...env }).database, false),
    );
    await admin.initialize();
    await admin.query(
      "INSERT INTO account (id, email, passwordHash, createdAt, updatedAt) VALUES ('acc', 'k@example.com', 'x', '2026-01-01 00:00:00.000', '2026-01-01 00:00:00.000')",
    );
    await admin.query(
      "INSERT INTO form (id, accountId, name, fields, domainVerification, apiKeyHash, apiKeyEncrypted, apiKeyPrefix, createdAt, updatedAt) VALUES ('durableform', 'acc', 'Durable', '[]', 0, 'h', 'e', 'fgk_x', '2026-01-01 00:00:00.000', '2026-01-01 00:00:00.000')",
    );
    await admin.destroy();

    const acknowledged: string[] = [];
    let killed = false;
    const post = async (n: number) => {
      const res = await fetch(`${server.url}/api/submit/durableform`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ n: String(n) }),
      }).catch(() => undefined);
      if (res?.status === 200) acknowledged.push(String(n));
    };
    // Four concurrent writers; the process is killed while they are busy.
    const writers = [0, 1, 2, 3].map(async (lane) => {
      for (let n = lane; !killed; n += 4) await post(n);
    });
    await waitFor(
      async () => acknowledged.length >= 50,
      20_000,
      '50 acknowledged submissions',
    );
    server.child.kill('SIGKILL');
    killed = true;
    await server.exited;
    await Promise.all(writers);

    const check = new DataSource(
      buildDataSourceOptions(loadConfig({ ...env }).database, false),
    );
    await check.initialize();
    const rows: Array<{ data: string }> = await check.query(
      "SELECT data FROM submission WHERE formId = 'durableform'",
    );
    await check.destroy();
    const stored = new Set(
      rows.map((row) => (JSON.parse(row.data) as { n: string }).n),
    );
    expect(acknowledged.length).toBeGreaterThanOrEqual(50);
    expect(acknowledged.filter((n) => !stored.has(n))).toEqual([]);
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
