// The metrics listener of the built processes (docs/operations.md): the server opens it
// beside its public port and closes it on SIGTERM; `npm run worker`, which has no HTTP of
// its own, serves its deliveries and sweeps there too; a bad METRICS_PORT stops the boot.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseScrape } from '../../support/metrics.js';
import {
  freePort,
  MAIN_JS,
  startServer,
  statusOf,
  waitFor,
  type ServerProcess,
} from '../../support/server-process.js';
import { TEST_APP_SECRET } from '../../support/test-app.js';

const up = async (url: string) => (await statusOf(url).catch(() => 0)) === 200;

describe('the metrics listener of the built processes (e2e)', () => {
  let workdir: string;
  let server: ServerProcess | undefined;

  beforeEach(() => {
    workdir = mkdtempSync(join(tmpdir(), 'formgate-metrics-'));
  });
  afterEach(async () => {
    if (server && server.child.exitCode === null) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    rmSync(workdir, { recursive: true, force: true });
  });

  it('opens beside the public port, on loopback by default, and closes on SIGTERM', async () => {
    const metricsPort = await freePort();
    const metrics = `http://127.0.0.1:${metricsPort}/metrics`;
    server = await startServer({
      APP_SECRET: TEST_APP_SECRET,
      DATABASE_URL: `sqlite:${join(workdir, 'server.sqlite')}`,
      STORAGE_URL: `file:${join(workdir, 'uploads')}`,
      METRICS_PORT: String(metricsPort),
      LOG_FORMAT: 'json',
    });
    await waitFor(() => up(`${server!.url}/health/ready`), 30_000, 'ready');
    await waitFor(() => up(metrics), 10_000, 'the metrics listener');
    const scrape = parseScrape(await (await fetch(metrics)).text());
    expect(scrape.value('formgate_database_up')).toBe(1);
    expect(server.stdout()).toContain(
      `Metrics at http://127.0.0.1:${metricsPort}/metrics`,
    );
    expect(await statusOf(`${server.url}/metrics`)).toBe(404);

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    await expect(fetch(metrics)).rejects.toThrow();
  });

  it('refuses to start on a METRICS_PORT that is not a port, naming it', () => {
    const result = spawnSync(process.execPath, [MAIN_JS], {
      env: {
        PATH: process.env.PATH ?? '',
        APP_SECRET: TEST_APP_SECRET,
        DATABASE_URL: `sqlite:${join(workdir, 'bad.sqlite')}`,
        METRICS_PORT: '99999',
      },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      'Invalid configuration: METRICS_PORT must be a whole number from 0 to 65535, got "99999"',
    );
  });

  it("serves the worker's deliveries and sweeps from `npm run worker`", async () => {
    const metricsPort = await freePort();
    const metrics = `http://127.0.0.1:${metricsPort}/metrics`;
    const worker = spawn(process.execPath, [resolve('dist/src/worker.js')], {
      env: {
        PATH: process.env.PATH ?? '',
        APP_SECRET: TEST_APP_SECRET,
        DATABASE_URL: `sqlite:${join(workdir, 'worker.sqlite')}`,
        METRICS_PORT: String(metricsPort),
        SWEEP_INTERVAL_SECONDS: '1',
        LOG_FORMAT: 'json',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const exited = new Promise<string>((done) =>
      worker.once('exit', (code, signal) => done(signal ?? String(code))),
    );
    try {
      await waitFor(() => up(metrics), 30_000, "the worker's metrics");
      await waitFor(
        async () => {
          const s = parseScrape(await (await fetch(metrics)).text());
          return (
            s.value('formgate_sweep_runs_total', {
              sweep: 'deliveries',
              outcome: 'succeeded',
            }) > 0
          );
        },
        20_000,
        "the worker's first sweep, counted",
      );
      const s = parseScrape(await (await fetch(metrics)).text());
      expect(
        s.has('formgate_deliveries_total', {
          channel: 'webhook',
          outcome: 'succeeded',
        }),
      ).toBe(true);
      expect(s.value('formgate_delivery_backlog', { channel: 'webhook' })).toBe(
        0,
      );
      expect(s.value('formgate_database_up')).toBe(1);
      // No HTTP of its own: nothing of the public routes is timed there.
      expect(s.seriesOf('formgate_http_request_duration_seconds')).toEqual([]);
    } finally {
      worker.kill('SIGTERM');
      expect(['0', 'SIGTERM']).toContain(await exited);
    }
  }, 60_000);
});
