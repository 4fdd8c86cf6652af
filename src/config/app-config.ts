// Typed configuration, read once from the environment and validated at boot.
// Code never reads process.env outside this file (and the CLI entry points that call it).
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { dirname, resolve } from 'node:path';
import {
  LOG_FORMATS,
  type LogFormat,
} from '../common/logging/log-destination.js';
import { ConfigError } from './config-error.js';
import { read, wholeNumber, type Env } from './env-values.js';
import { parseMail, parsePublicUrl, type MailConfig } from './mail-config.js';
import { parseSpamConfig, type SpamConfig } from './spam-config.js';
import { parseUploadConfig, type UploadConfig } from './upload-config.js';
import { parseReachConfig, type ReachConfig } from './reach-config.js';
import {
  parseTelemetryConfig,
  type TelemetryConfig,
} from './telemetry-config.js';

export type DatabaseConfig =
  { type: 'sqlite'; path: string } | { type: 'mysql' | 'mariadb'; url: string };

/** `false`, a hop count, or a list of trusted proxy addresses / CIDR ranges. */
export type TrustProxy = false | number | string[];

export type AppSecretSource = 'env' | 'file' | 'generated';

export class AppConfig {
  nodeEnv: string;
  port: number;
  host: string;
  database: DatabaseConfig;
  migrationsRun: boolean;
  submitRateLimit: number;
  submitRateWindowSeconds: number;
  submitBodyLimit: number;
  /** Accepted submissions waiting for the commit queue before submit answers 503. */
  submitQueueLimit: number;
  trustProxy: TrustProxy;
  redisUrl: string | undefined;
  dnsServers: string[];
  appSecret: string;
  /** Where the secret came from: APP_SECRET, the file beside the data, or made just now. */
  appSecretSource: AppSecretSource;
  /** The secret file, when the secret lives in one. */
  appSecretFile?: string;
  logLevel: string;
  logFormat: LogFormat;
  signupEnabled: boolean;
  maxFormsPerAccount: number;
  /** Members plus pending invitations one account may have. */
  maxMembersPerAccount: number;
  /** Run the notification worker in this process. */
  workerEnabled: boolean;
  /** Deliveries one worker sends at once. */
  workerConcurrency: number;
  /** Seconds between attempts of a delivery (N delays → N + 1 attempts). */
  webhookRetrySchedule: number[];
  /** Allow webhook targets on private, loopback and link-local addresses. */
  webhookAllowPrivate: boolean;
  /** null when SMTP_URL and MAIL_FROM are unset: the email channel is off. */
  mail: MailConfig | null;
  /** The address people use (no trailing slash), for links in emails. */
  publicUrl: string;
  /** Seconds between runs of the background sweeps; 0: none in this process. */
  sweepIntervalSeconds: number;
  /** Seconds between passes of the full-text indexer (where the worker runs); 0: none. */
  searchIndexIntervalSeconds: number;
  /** Deliveries and their attempts are deleted this many days after they were created. */
  deliveryRetentionDays: number;
  /** Audit events are deleted this many days after they were recorded (docs/audit.md). */
  auditRetentionDays: number;
  /** CAPTCHA verification and the spam folder. */
  spam: SpamConfig;
  /** File uploads: storage and limits. */
  uploads: UploadConfig;
  /** The metrics listener and where traces go. */
  telemetry: TelemetryConfig;
  /** Chat channels' hosts and the autoresponder's cap. */
  reach: ReachConfig;
}

export const DEFAULT_RETRY_SCHEDULE = [5, 300, 1800, 7200, 18000, 36000, 36000];

export function parseRetrySchedule(raw: string | undefined): number[] {
  if (raw === undefined) return [...DEFAULT_RETRY_SCHEDULE];
  const parts = raw.split(',').map((part) => part.trim());
  const bad = parts.find(
    (part) => !/^\d+(\.\d+)?$/.test(part) || Number(part) > 604_800,
  );
  if (bad !== undefined || parts.length > 50) {
    throw new ConfigError(
      'WEBHOOK_RETRY_SCHEDULE',
      `must be a comma list of at most 50 delays in seconds (0–604800), got "${raw}"`,
    );
  }
  return parts.map(Number);
}

export { ConfigError } from './config-error.js';
export { describeSmtp, type MailConfig } from './mail-config.js';
export type { SpamConfig } from './spam-config.js';
export type { UploadConfig } from './upload-config.js';
export type { TelemetryConfig } from './telemetry-config.js';

const LOG_LEVELS = [
  'fatal',
  'error',
  'warn',
  'info',
  'debug',
  'trace',
  'silent',
];
export const DEFAULT_SQLITE_PATH = './data/formgate.sqlite';
const DEFAULT_SECRET_FILE = './data/secret';

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = read(env, name)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (['true', '1', 'yes'].includes(raw)) return true;
  if (['false', '0', 'no'].includes(raw)) return false;
  throw new ConfigError(name, `must be true or false, got "${raw}"`);
}

export function parseDatabaseUrl(
  raw: string | undefined,
  name = 'DATABASE_URL',
): DatabaseConfig {
  if (raw === undefined) return { type: 'sqlite', path: DEFAULT_SQLITE_PATH };
  if (raw === 'sqlite::memory:') return { type: 'sqlite', path: ':memory:' };
  if (raw.startsWith('sqlite:')) {
    const path = raw.slice('sqlite:'.length).replace(/^\/\//, '');
    if (!path) throw new ConfigError(name, 'needs a file path after "sqlite:"');
    return { type: 'sqlite', path };
  }
  if (/^(mysql|mariadb):\/\//.test(raw)) {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new ConfigError(name, 'is not a valid mysql:// URL');
    }
    if (!url.hostname) throw new ConfigError(name, 'needs a host');
    if (url.pathname.length <= 1) {
      throw new ConfigError(name, 'needs a database name');
    }
    // Same mysql2 driver; the scheme picks the SQL dialect TypeORM speaks.
    return { type: raw.startsWith('mariadb:') ? 'mariadb' : 'mysql', url: raw };
  }
  throw new ConfigError(
    name,
    'must start with mysql://, mariadb://, sqlite: or be sqlite::memory: (got an unsupported scheme)',
  );
}

function isCidr(entry: string): boolean {
  const [address, prefix, ...rest] = entry.split('/');
  if (rest.length > 0) return false;
  const family = isIP(address);
  if (family === 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d+$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

export function parseTrustProxy(raw: string | undefined): TrustProxy {
  if (raw === undefined || raw.toLowerCase() === 'false') return false;
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops < 1 || hops > 10) {
      throw new ConfigError('TRUST_PROXY', 'hop count must be 1–10');
    }
    return hops;
  }
  const entries = raw
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  const bad = entries.find((entry) => !isCidr(entry));
  if (bad !== undefined || entries.length === 0) {
    throw new ConfigError(
      'TRUST_PROXY',
      `must be false, a hop count or a comma list of IPs/CIDRs (bad entry "${bad ?? raw}")`,
    );
  }
  return entries;
}

function parseDnsServers(raw: string | undefined): string[] {
  if (raw === undefined) return [];
  return raw.split(',').map((part) => {
    const server = part.trim();
    const match = /^\[?([^\]]+?)\]?(?::(\d+))?$/.exec(server);
    const host = match?.[1] ?? '';
    const ipv6WithoutPort = isIP(server) === 6;
    if (!ipv6WithoutPort && (!match || isIP(host) === 0)) {
      throw new ConfigError(
        'DNS_SERVERS',
        `must be a comma list of IP[:port], got "${server}"`,
      );
    }
    if (match?.[2] !== undefined && Number(match[2]) > 65535) {
      throw new ConfigError(
        'DNS_SERVERS',
        `has an invalid port in "${server}"`,
      );
    }
    return server;
  });
}

interface ResolvedSecret {
  secret: string;
  source: AppSecretSource;
  file?: string;
}

function resolveSecret(env: Env, nodeEnv: string): ResolvedSecret {
  const secret = read(env, 'APP_SECRET');
  if (secret !== undefined) {
    if (secret.length < 32) {
      throw new ConfigError('APP_SECRET', 'must be at least 32 characters');
    }
    return { secret, source: 'env' };
  }
  if (nodeEnv === 'production') {
    throw new ConfigError('APP_SECRET', 'is required when NODE_ENV=production');
  }
  // Development convenience: one secret per installation, kept beside the SQLite file.
  const file = resolve(DEFAULT_SECRET_FILE);
  if (existsSync(file)) {
    return { secret: readFileSync(file, 'utf8').trim(), source: 'file', file };
  }
  const generated = randomBytes(32).toString('base64url');
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${generated}\n`, { mode: 0o600 });
  return { secret: generated, source: 'generated', file };
}

export function loadConfig(env: Env = process.env): AppConfig {
  const config = new AppConfig();
  config.nodeEnv = read(env, 'NODE_ENV') ?? 'development';
  config.port = wholeNumber(env, 'PORT', 3000, 0, 65535);
  config.host = read(env, 'HOST') ?? '0.0.0.0';
  if (isIP(config.host) === 0 && !/^[a-z0-9.-]+$/i.test(config.host)) {
    throw new ConfigError(
      'HOST',
      `must be an IP address or host name, got "${config.host}"`,
    );
  }
  config.database = parseDatabaseUrl(read(env, 'DATABASE_URL'));
  config.migrationsRun = boolean(env, 'MIGRATIONS_RUN', true);
  config.submitRateLimit = wholeNumber(
    env,
    'SUBMIT_RATE_LIMIT',
    10,
    1,
    1_000_000,
  );
  config.submitRateWindowSeconds = wholeNumber(
    env,
    'SUBMIT_RATE_WINDOW_SECONDS',
    60,
    1,
    86_400,
  );
  config.submitBodyLimit = wholeNumber(
    env,
    'SUBMIT_BODY_LIMIT',
    102_400,
    1024,
    10_485_760,
  );
  config.submitQueueLimit = wholeNumber(
    env,
    'SUBMIT_QUEUE_LIMIT',
    10_000,
    1,
    1_000_000,
  );
  config.trustProxy = parseTrustProxy(read(env, 'TRUST_PROXY'));
  const redisUrl = read(env, 'REDIS_URL');
  if (redisUrl !== undefined && !/^rediss?:\/\/[^/]/.test(redisUrl)) {
    throw new ConfigError('REDIS_URL', 'must be a redis:// or rediss:// URL');
  }
  config.redisUrl = redisUrl;
  config.dnsServers = parseDnsServers(read(env, 'DNS_SERVERS'));
  config.logLevel = read(env, 'LOG_LEVEL') ?? 'info';
  if (!LOG_LEVELS.includes(config.logLevel)) {
    throw new ConfigError(
      'LOG_LEVEL',
      `must be one of ${LOG_LEVELS.join(', ')}`,
    );
  }
  const logFormat = read(env, 'LOG_FORMAT')?.toLowerCase() ?? 'auto';
  if (!(LOG_FORMATS as readonly string[]).includes(logFormat)) {
    throw new ConfigError(
      'LOG_FORMAT',
      `must be one of ${LOG_FORMATS.join(', ')}, got "${logFormat}"`,
    );
  }
  config.logFormat = logFormat as LogFormat;
  config.signupEnabled = boolean(env, 'SIGNUP_ENABLED', true);
  config.maxFormsPerAccount = wholeNumber(
    env,
    'MAX_FORMS_PER_ACCOUNT',
    1000,
    1,
    1_000_000,
  );
  config.maxMembersPerAccount = wholeNumber(
    env,
    'MAX_MEMBERS_PER_ACCOUNT',
    100,
    1,
    100_000,
  );
  config.workerEnabled = boolean(env, 'WORKER_ENABLED', true);
  config.workerConcurrency = wholeNumber(env, 'WORKER_CONCURRENCY', 8, 1, 256);
  config.webhookRetrySchedule = parseRetrySchedule(
    read(env, 'WEBHOOK_RETRY_SCHEDULE'),
  );
  config.webhookAllowPrivate = boolean(env, 'WEBHOOK_ALLOW_PRIVATE', false);
  config.mail = parseMail(read(env, 'SMTP_URL'), read(env, 'MAIL_FROM'));
  config.publicUrl = parsePublicUrl(
    read(env, 'PUBLIC_URL') ?? `http://localhost:${config.port}`,
  );
  config.sweepIntervalSeconds = wholeNumber(
    env,
    'SWEEP_INTERVAL_SECONDS',
    300,
    0,
    604_800,
  );
  config.searchIndexIntervalSeconds = wholeNumber(
    env,
    'SEARCH_INDEX_INTERVAL_SECONDS',
    2,
    0,
    3600,
  );
  config.deliveryRetentionDays = wholeNumber(
    env,
    'DELIVERY_RETENTION_DAYS',
    30,
    1,
    3650,
  );
  config.auditRetentionDays = wholeNumber(
    env,
    'AUDIT_RETENTION_DAYS',
    365,
    1,
    36_500,
  );
  config.spam = parseSpamConfig(env);
  config.uploads = parseUploadConfig(env);
  config.telemetry = parseTelemetryConfig(env, config.port);
  config.reach = parseReachConfig(env);
  const secret = resolveSecret(env, config.nodeEnv);
  config.appSecret = secret.secret;
  config.appSecretSource = secret.source;
  config.appSecretFile = secret.file;
  return config;
}
