import {
  ConfigError,
  loadConfig,
  parseDatabaseUrl,
  parseTrustProxy,
} from './app-config.js';

const SECRET = 's'.repeat(40);
const load = (env: Record<string, string>) =>
  loadConfig({ APP_SECRET: SECRET, ...env });

function errorFor(env: Record<string, string>): ConfigError {
  try {
    load(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = load({});
    expect(config).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      database: { type: 'sqlite', path: './data/formgate.sqlite' },
      migrationsRun: true,
      submitRateLimit: 10,
      submitRateWindowSeconds: 60,
      submitBodyLimit: 102_400,
      trustProxy: false,
      redisUrl: undefined,
      dnsServers: [],
      logLevel: 'info',
      logFormat: 'auto',
      signupEnabled: true,
      appSecretSource: 'env',
      maxFormsPerAccount: 1000,
      maxMembersPerAccount: 100,
      workerEnabled: true,
      workerConcurrency: 8,
      webhookRetrySchedule: [5, 300, 1800, 7200, 18000, 36000, 36000],
      webhookAllowPrivate: false,
      sweepIntervalSeconds: 300,
      deliveryRetentionDays: 30,
      auditRetentionDays: 365,
    });
  });

  it('reads the sweep settings, 0 turning background sweeps off', () => {
    expect(
      load({ SWEEP_INTERVAL_SECONDS: '0', DELIVERY_RETENTION_DAYS: '7' }),
    ).toMatchObject({ sweepIntervalSeconds: 0, deliveryRetentionDays: 7 });
    expect(errorFor({ SWEEP_INTERVAL_SECONDS: '-1' }).variable).toBe(
      'SWEEP_INTERVAL_SECONDS',
    );
    expect(errorFor({ DELIVERY_RETENTION_DAYS: '0' }).variable).toBe(
      'DELIVERY_RETENTION_DAYS',
    );
  });

  it('reads the notification worker settings', () => {
    expect(
      load({
        WORKER_ENABLED: 'false',
        WORKER_CONCURRENCY: '2',
        WEBHOOK_RETRY_SCHEDULE: '0.5, 1,2',
        WEBHOOK_ALLOW_PRIVATE: 'true',
      }),
    ).toMatchObject({
      workerEnabled: false,
      workerConcurrency: 2,
      webhookRetrySchedule: [0.5, 1, 2],
      webhookAllowPrivate: true,
    });
  });

  it('reads MAX_FORMS_PER_ACCOUNT', () => {
    expect(load({ MAX_FORMS_PER_ACCOUNT: '25' }).maxFormsPerAccount).toBe(25);
  });

  it('reads MAX_MEMBERS_PER_ACCOUNT', () => {
    expect(load({ MAX_MEMBERS_PER_ACCOUNT: '5' }).maxMembersPerAccount).toBe(5);
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'ftp://x' }, 'DATABASE_URL'],
    [{ DATABASE_URL: 'mysql://host-only' }, 'DATABASE_URL'],
    [{ MIGRATIONS_RUN: 'maybe' }, 'MIGRATIONS_RUN'],
    [{ SUBMIT_RATE_LIMIT: '0' }, 'SUBMIT_RATE_LIMIT'],
    [{ SUBMIT_RATE_WINDOW_SECONDS: '-5' }, 'SUBMIT_RATE_WINDOW_SECONDS'],
    [{ SUBMIT_BODY_LIMIT: '10' }, 'SUBMIT_BODY_LIMIT'],
    [{ TRUST_PROXY: '10.0.0.0/99' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: 'yes please' }, 'TRUST_PROXY'],
    [{ REDIS_URL: 'http://redis' }, 'REDIS_URL'],
    [{ DNS_SERVERS: 'dns.example.com' }, 'DNS_SERVERS'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ LOG_FORMAT: 'xml' }, 'LOG_FORMAT'],
    [{ APP_SECRET: 'short' }, 'APP_SECRET'],
    [{ SIGNUP_ENABLED: 'perhaps' }, 'SIGNUP_ENABLED'],
    [{ MAX_FORMS_PER_ACCOUNT: '0' }, 'MAX_FORMS_PER_ACCOUNT'],
    [{ MAX_FORMS_PER_ACCOUNT: 'many' }, 'MAX_FORMS_PER_ACCOUNT'],
    [{ MAX_MEMBERS_PER_ACCOUNT: '0' }, 'MAX_MEMBERS_PER_ACCOUNT'],
    [{ MAX_MEMBERS_PER_ACCOUNT: 'lots' }, 'MAX_MEMBERS_PER_ACCOUNT'],
    [{ WORKER_ENABLED: 'sometimes' }, 'WORKER_ENABLED'],
    [{ WORKER_CONCURRENCY: '0' }, 'WORKER_CONCURRENCY'],
    [{ WEBHOOK_RETRY_SCHEDULE: '5,soon' }, 'WEBHOOK_RETRY_SCHEDULE'],
    [{ WEBHOOK_RETRY_SCHEDULE: '-5' }, 'WEBHOOK_RETRY_SCHEDULE'],
    [{ WEBHOOK_ALLOW_PRIVATE: 'maybe' }, 'WEBHOOK_ALLOW_PRIVATE'],
  ])('refuses %j naming %s', (env, variable) => {
    const error = errorFor(env);
    expect(error.variable).toBe(variable);
    expect(error.message).toContain(variable);
  });

  it('says the range of a whole number the same way for every variable', () => {
    expect(errorFor({ PORT: '70000' }).message).toContain(
      'must be a whole number from 0 to 65535, got "70000"',
    );
    expect(errorFor({ WORKER_CONCURRENCY: 'many' }).message).toContain(
      'must be a whole number from 1 to 256, got "many"',
    );
  });

  it('takes json or pretty logs on request, whatever the terminal', () => {
    expect(load({ LOG_FORMAT: 'JSON' }).logFormat).toBe('json');
    expect(load({ LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty');
  });

  it('requires APP_SECRET in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/APP_SECRET/);
  });

  it('reads DNS servers with and without ports', () => {
    expect(
      load({ DNS_SERVERS: '127.0.0.1:5353, 1.1.1.1, [::1]:53' }).dnsServers,
    ).toEqual(['127.0.0.1:5353', '1.1.1.1', '[::1]:53']);
  });
});

describe('parseDatabaseUrl', () => {
  it('selects SQLite by default, in memory, or at a path', () => {
    expect(parseDatabaseUrl(undefined)).toEqual({
      type: 'sqlite',
      path: './data/formgate.sqlite',
    });
    expect(parseDatabaseUrl('sqlite::memory:')).toEqual({
      type: 'sqlite',
      path: ':memory:',
    });
    expect(parseDatabaseUrl('sqlite:/tmp/x.db')).toEqual({
      type: 'sqlite',
      path: '/tmp/x.db',
    });
  });

  it('selects the MySQL or MariaDB dialect from the scheme', () => {
    expect(parseDatabaseUrl('mysql://u:p@db:3306/formgate')).toEqual({
      type: 'mysql',
      url: 'mysql://u:p@db:3306/formgate',
    });
    expect(parseDatabaseUrl('mariadb://u@db/formgate').type).toBe('mariadb');
  });
});

describe('parseTrustProxy', () => {
  it('accepts false, a hop count or a CIDR list', () => {
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy('2')).toBe(2);
    expect(parseTrustProxy('10.0.0.0/8, 192.168.1.1, ::1/128')).toEqual([
      '10.0.0.0/8',
      '192.168.1.1',
      '::1/128',
    ]);
  });
});
