// docker-compose.yml and the Dockerfile cannot be run here (no Docker engine): the compose
// file is validated against the Compose specification's schema (dclint, the same check
// `npm run lint` runs) and its wiring is checked, so a broken edit fails CI. The Caddyfile
// is parsed by Caddy itself where it is installed.
import { DCLinter } from 'dclint';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { describeWhen } from '../../support/skips.js';

interface ComposeService {
  image?: string;
  build?: unknown;
  pull_policy?: string;
  command?: string[];
  environment?: Record<string, string>;
  ports?: Array<
    string | { target: number; published: string; host_ip?: string }
  >;
  expose?: string[];
  healthcheck?: { test: string[] | string };
  depends_on?: Record<string, { condition: string }>;
  configs?: Array<{ source: string; target: string }>;
  deploy?: { replicas?: number };
}

const source = readFileSync('docker-compose.yml', 'utf8');
// `merge`: the file shares one environment block between app and migrate (<<).
const compose = parse(source, { merge: true }) as {
  services: Record<string, ComposeService>;
  configs: Record<string, { file?: string; content?: string }>;
};
const dockerfile = readFileSync('Dockerfile', 'utf8');
const caddyfile = readFileSync('Caddyfile', 'utf8');
const CADDY = '/usr/bin/caddy';

describe('docker-compose.yml', () => {
  it('is valid under the Compose specification, with no lint findings', () => {
    const linter = new DCLinter({
      rules: {},
      quiet: false,
      debug: false,
      exclude: [],
    });
    const [result] = linter.lintFiles(['docker-compose.yml'], false);
    expect(result.messages).toEqual([]);
    expect(result.errorCount).toBe(0);
  });

  it('runs MySQL 8.4, Redis 7, a reverse proxy and the app built from the Dockerfile', () => {
    const { mysql, redis, app, proxy } = compose.services;
    expect(mysql.image).toBe('mysql:8.4');
    expect(redis.image).toMatch(/^redis:7(\.|-|$)/);
    expect(proxy.image).toMatch(/^caddy:2\.\d+$/);
    expect(app.build).toBe('.');
  });

  it('builds one image, which the migrate service and every app replica run', () => {
    const { app, migrate } = compose.services;
    expect(app.image).toBe('formgate:${FORMGATE_TAG:-local}');
    expect(migrate.image).toBe(app.image);
    expect(migrate.build).toBeUndefined();
    expect(migrate.pull_policy).toBe('never');
    expect(migrate.command).toEqual(['node', 'dist/src/database/migrate.js']);
    const built = Object.entries(compose.services)
      .filter(([, service]) => service.build !== undefined)
      .map(([name]) => name);
    expect(built).toEqual(['app']);
  });

  it('wires the app to MySQL and Redis by DATABASE_URL and REDIS_URL', () => {
    const env = compose.services.app.environment!;
    expect(env.DATABASE_URL).toMatch(
      /^mysql:\/\/formgate:.*@mysql:3306\/formgate$/,
    );
    expect(env.REDIS_URL).toBe('redis://redis:6379');
    expect(env.NODE_ENV).toBe('production');
    // Replicas never race to migrate: a one-shot service does it first.
    expect(env.MIGRATIONS_RUN).toBe('false');
    expect(compose.services.migrate.environment!.DATABASE_URL).toBe(
      env.DATABASE_URL,
    );
    expect(compose.services.app.depends_on).toMatchObject({
      mysql: { condition: 'service_healthy' },
      redis: { condition: 'service_healthy' },
      migrate: { condition: 'service_completed_successfully' },
    });
  });

  it('takes its secrets from .env, refusing to start without them, with no default password', () => {
    const required = (name: string) => new RegExp(`\\$\\{${name}:\\?[^}]+\\}`);
    const { app, migrate, mysql } = compose.services;
    expect(app.environment!.APP_SECRET).toMatch(required('APP_SECRET'));
    expect(migrate.environment!.APP_SECRET).toBe(app.environment!.APP_SECRET);
    expect(app.environment!.DATABASE_URL).toMatch(required('MYSQL_PASSWORD'));
    expect(mysql.environment!.MYSQL_PASSWORD).toMatch(
      required('MYSQL_PASSWORD'),
    );
    expect(mysql.environment!.MYSQL_ROOT_PASSWORD).toMatch(
      required('MYSQL_ROOT_PASSWORD'),
    );
    // No secret has a fallback value that would quietly apply.
    expect(source).not.toMatch(/\$\{(APP_SECRET|MYSQL_[A-Z_]*PASSWORD):-/);
  });

  it('puts the proxy in front of the app replicas, and the app trusts exactly that hop', () => {
    const { app, proxy } = compose.services;
    // The app publishes nothing: the proxy is the only way in, so it scales freely.
    expect(app.ports).toBeUndefined();
    // 3000 for the proxy; 9464, the metrics, for a scraper on the project's network.
    expect(app.expose).toEqual(['3000', '9464']);
    expect(app.environment!.TRUST_PROXY).toBe('1');
    expect(proxy.depends_on).toMatchObject({
      app: { condition: 'service_healthy' },
    });
    expect(proxy.ports).toEqual([
      {
        target: 80,
        published: '${FORMGATE_HTTP_PORT:-8080}',
        host_ip: '${FORMGATE_BIND:-127.0.0.1}',
      },
      {
        target: 443,
        published: '${FORMGATE_HTTPS_PORT:-8443}',
        host_ip: '${FORMGATE_BIND:-127.0.0.1}',
      },
    ]);
    expect(proxy.configs).toEqual([
      { source: 'caddyfile', target: '/etc/caddy/Caddyfile' },
    ]);
    expect(compose.configs.caddyfile).toEqual({ file: './Caddyfile' });
    expect(proxy.environment!.FORMGATE_SITE).toBe('${FORMGATE_SITE:-:80}');
    // Every replica, found again as the service scales; one that fails is left out and
    // the request tried on another.
    expect(caddyfile).toMatch(/^\{\$FORMGATE_SITE::80\} \{$/m);
    expect(caddyfile).toMatch(/dynamic a app 3000 \{\s+refresh 5s/);
    expect(caddyfile).toMatch(/^\s+lb_try_duration 5s$/m);
    expect(caddyfile).toMatch(/^\s+fail_duration 10s$/m);
  });

  it('runs three app replicas, each with a notification worker', () => {
    const { app } = compose.services;
    expect(app.deploy).toEqual({ replicas: 3 });
    expect(app.environment!.WORKER_ENABLED).toBe('true');
    expect(compose.services.worker).toBeUndefined();
  });

  it('has a healthcheck on every long-running service', () => {
    for (const name of ['mysql', 'redis', 'app', 'proxy']) {
      expect(compose.services[name].healthcheck?.test, name).toBeTruthy();
    }
    expect(JSON.stringify(compose.services.app.healthcheck!.test)).toContain(
      '/health/ready',
    );
  });

  it('keeps the metrics port on the internal network: exposed to the project, never published', () => {
    const { app, proxy } = compose.services;
    expect(app.environment!.METRICS_PORT).toBe('9464');
    expect(app.environment!.METRICS_HOST).toBe('0.0.0.0');
    expect(app.expose).toContain('9464');
    expect(JSON.stringify(app.ports ?? [])).not.toContain('9464');
    expect(JSON.stringify(proxy.ports)).not.toContain('9464');
    expect(caddyfile).not.toContain('9464');
  });

  it('publishes no fixed host port for the app, so it can be scaled', () => {
    for (const port of compose.services.app.ports ?? []) {
      expect(typeof port === 'string' ? port : JSON.stringify(port)).toMatch(
        /^\d+$/,
      );
    }
  });
});

describeWhen(
  existsSync(CADDY),
  `needs ${CADDY} (apt-get install caddy) to parse the Caddyfile`,
)('Caddyfile', () => {
  it('is what Caddy reads: a proxy over every app replica, and its own health address', () => {
    const adapted = spawnSync(
      CADDY,
      ['adapt', '--config', 'Caddyfile', '--adapter', 'caddyfile'],
      { encoding: 'utf8' },
    );
    expect(adapted.status, adapted.stderr).toBe(0);
    const config = JSON.stringify(JSON.parse(adapted.stdout));
    expect(config).toContain(
      '"dynamic_upstreams":{"name":"app","port":"3000","refresh":5000000000,"source":"a"}',
    );
    expect(config).toContain(
      '"passive":{"fail_duration":10000000000,"max_fails":1}',
    );
    expect(config).toContain('"listen":[":2020"]');
    expect(config).toContain('"listen":[":80"]');
  });
});

describe('Dockerfile', () => {
  it('is multi-stage and runs as a non-root user', () => {
    expect(dockerfile.match(/^FROM /gm)?.length).toBeGreaterThanOrEqual(2);
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toMatch(/^CMD \["node", "dist\/src\/main\.js"\]$/m);
    expect(dockerfile).toMatch(/^HEALTHCHECK /m);
  });

  it('builds and runs on Node.js 24, the current LTS', () => {
    const bases = [...dockerfile.matchAll(/^FROM (\S+)/gm)].map((m) => m[1]);
    expect(bases.length).toBeGreaterThanOrEqual(2);
    for (const base of bases) expect(base).toMatch(/^node:24-/);
    // The build script the image runs is in the image.
    expect(dockerfile).toMatch(/^COPY scripts \.\/scripts$/m);
  });

  it('carries the guides the dashboard links to', () => {
    expect(dockerfile).toMatch(/^COPY --chown=node:node docs \.\/docs$/m);
  });
});
