// A first boot loads what serving needs, and no more (docs/performance.md, "Start and idle
// memory"): the S3 client, nodemailer and file-type are loaded on their first use, and
// OpenTelemetry only when OTEL_EXPORTER_OTLP_ENDPOINT is set — not even with the metrics
// listener on. The built server runs as a child process with a module hook that lists every
// module it loads.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  startServer,
  statusOf,
  waitFor,
  type ServerProcess,
} from '../../support/server-process.js';

const HOOKS = `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  appendFileSync(process.env.FORMGATE_LOADED_MODULES, url + '\\n');
  return next(url, context);
}`;
const REGISTER = `import { register } from 'node:module';
register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(HOOKS)}`)});`;

describe('first boot', () => {
  let workdir: string;
  let server: ServerProcess | undefined;

  beforeEach(() => {
    workdir = mkdtempSync(join(tmpdir(), 'formgate-boot-'));
  });
  afterEach(async () => {
    if (server && server.child.exitCode === null) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    rmSync(workdir, { recursive: true, force: true });
  });

  /** Boots the built server with `env` and answers the packages it loaded until ready. */
  async function packagesAtBoot(env: Record<string, string>) {
    const loaded = join(workdir, 'loaded.txt');
    server = await startServer({
      NODE_ENV: 'production',
      NODE_OPTIONS: `--import=data:text/javascript,${encodeURIComponent(REGISTER)}`,
      FORMGATE_LOADED_MODULES: loaded,
      APP_SECRET: 'boot-footprint-secret-0123456789abcdef0123456789',
      DATABASE_URL: `sqlite:${join(workdir, 'first.sqlite')}`,
      STORAGE_URL: `file:${join(workdir, 'uploads')}`,
      LOG_LEVEL: 'warn',
      ...env,
    });
    await waitFor(
      async () => (await statusOf(`${server!.url}/health/ready`)) === 200,
      30_000,
      '/health/ready',
    );
    const packages = new Set(
      readFileSync(loaded, 'utf8')
        .split('\n')
        .map((url) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1])
        .filter((name) => name !== undefined),
    );
    // The hook saw the boot: the packages every request needs are there.
    expect(packages).toContain('typeorm');
    expect(packages).toContain('@nestjs/core');
    expect(packages).toContain('fastify');
    return packages;
  }

  it('is ready without loading the S3 client, nodemailer, file-type or OpenTelemetry, mail, uploads and metrics on', async () => {
    const packages = await packagesAtBoot({
      SMTP_URL: 'smtp://127.0.0.1:2525',
      MAIL_FROM: 'Formgate <formgate@example.com>',
      METRICS_PORT: '0',
    });
    expect(packages).toContain('prom-client');
    const deferred = [...packages].filter(
      (name) =>
        name.startsWith('@aws-sdk/') ||
        name.startsWith('@opentelemetry/') ||
        name === 'nodemailer' ||
        name === 'file-type',
    );
    expect(deferred).toEqual([]);
  });

  it('loads OpenTelemetry once OTEL_EXPORTER_OTLP_ENDPOINT is set', async () => {
    const packages = await packagesAtBoot({
      // Nothing listens there: spans that cannot be sent are dropped.
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9',
    });
    expect(packages).toContain('@opentelemetry/sdk-trace-base');
    expect(packages).toContain('@opentelemetry/exporter-trace-otlp-http');
  });
});
