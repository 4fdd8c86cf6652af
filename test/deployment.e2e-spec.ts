// docker-compose.yml and the Dockerfile cannot be run here (no Docker engine): their
// structure is checked instead, so a broken edit fails CI.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[];
  environment?: Record<string, string>;
  ports?: string[];
  healthcheck?: { test: string[] | string };
  depends_on?: Record<string, { condition: string }>;
}

const compose = parse(readFileSync('docker-compose.yml', 'utf8')) as {
  services: Record<string, ComposeService>;
};
const dockerfile = readFileSync('Dockerfile', 'utf8');

describe('docker-compose.yml', () => {
  it('runs MySQL 8.4, Redis 7 and the app built from the Dockerfile', () => {
    const { mysql, redis, app, migrate } = compose.services;
    expect(mysql.image).toBe('mysql:8.4');
    expect(redis.image).toMatch(/^redis:7(\.|-|$)/);
    expect(app.build).toBe('.');
    expect(migrate.build).toBe('.');
  });

  it('wires the app to MySQL and Redis by DATABASE_URL and REDIS_URL', () => {
    const env = compose.services.app.environment!;
    expect(env.DATABASE_URL).toMatch(
      /^mysql:\/\/formgate:.*@mysql:3306\/formgate$/,
    );
    expect(env.REDIS_URL).toBe('redis://redis:6379');
    expect(env.APP_SECRET).toContain('APP_SECRET');
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

  it('has a healthcheck on every long-running service', () => {
    for (const name of ['mysql', 'redis', 'app']) {
      expect(compose.services[name].healthcheck?.test, name).toBeTruthy();
    }
    expect(JSON.stringify(compose.services.app.healthcheck!.test)).toContain(
      '/health/ready',
    );
  });

  it('publishes no fixed host port for the app, so it can be scaled', () => {
    for (const port of compose.services.app.ports ?? []) {
      expect(String(port)).toMatch(/^\d+$/);
    }
  });
});

describe('Dockerfile', () => {
  it('is multi-stage and runs as a non-root user', () => {
    expect(dockerfile.match(/^FROM /gm)?.length).toBeGreaterThanOrEqual(2);
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toMatch(/^CMD \["node", "dist\/src\/main\.js"\]$/m);
    expect(dockerfile).toMatch(/^HEALTHCHECK /m);
  });
});
