// The line a person starting Formgate looks for: where it listens, where the dashboard and
// the API docs are, which database it uses and where its secret came from.
import { Logger } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { isAbsolute, relative } from 'node:path';
import type { AppConfig, DatabaseConfig } from './config/app-config.js';
import { DatabaseStateService } from './common/database/database-state.service.js';
import { UnknownMigrationsError } from './common/database/unknown-migrations.js';
import { passkeyWarning } from './second-factors/webauthn-party.js';

/** How long the database may take before the log says it is still being waited for. */
const WAITING_NOTICE_MS = 1500;

const DIALECT_NAMES = { mysql: 'MySQL', mariadb: 'MariaDB' } as const;

/** A path as a person would type it from the working directory. */
function displayPath(path: string, cwd: string): string {
  if (!isAbsolute(path)) return path.startsWith('.') ? path : `./${path}`;
  const inside = relative(cwd, path);
  return inside && !inside.startsWith('..') && !isAbsolute(inside)
    ? `./${inside}`
    : path;
}

/** The address to open in a browser: a wildcard listen address is reached as localhost. */
export function browserUrl(host: string, port: number): string {
  const name = ['0.0.0.0', '::', '[::]', ''].includes(host)
    ? 'localhost'
    : host.includes(':')
      ? `[${host}]`
      : host;
  return `http://${name}:${port}`;
}

/** The database in words, never with its password. */
export function describeDatabase(
  database: DatabaseConfig,
  cwd = process.cwd(),
): string {
  if (database.type === 'sqlite') {
    return database.path === ':memory:'
      ? 'SQLite in memory (nothing is kept after exit)'
      : `SQLite ${displayPath(database.path, cwd)}`;
  }
  const url = new URL(database.url);
  const user = url.username ? `${decodeURIComponent(url.username)}@` : '';
  const port = url.port ? `:${url.port}` : '';
  return `${DIALECT_NAMES[database.type]} ${user}${url.hostname}${port}${url.pathname}`;
}

function describeSecret(config: AppConfig, cwd: string): string {
  const file = config.appSecretFile
    ? displayPath(config.appSecretFile, cwd)
    : '';
  switch (config.appSecretSource) {
    case 'generated':
      return `a new APP_SECRET was generated into ${file} (keep that file: it encrypts the stored API keys)`;
    case 'file':
      return `APP_SECRET from ${file}`;
    default:
      return 'APP_SECRET from the environment';
  }
}

export interface ReadyDetails {
  url: string;
  dashboard: string;
  docs: string;
  database: string;
  secret: string;
  envFile?: string;
}

export function readyDetails(
  config: AppConfig,
  port: number,
  envFile?: string,
  cwd = process.cwd(),
): ReadyDetails {
  const url = browserUrl(config.host, port);
  return {
    url,
    dashboard: `${url}/dashboard`,
    docs: `${url}/docs`,
    database: describeDatabase(config.database, cwd),
    secret: describeSecret(config, cwd),
    ...(envFile ? { envFile: displayPath(envFile, cwd) } : {}),
  };
}

export function readyLine(details: ReadyDetails): string {
  const settings = details.envFile ? ` · settings from ${details.envFile}` : '';
  return (
    `Formgate is ready at ${details.url} · dashboard ${details.dashboard} · ` +
    `API docs ${details.docs} · database ${details.database} · ${details.secret}${settings}`
  );
}

/**
 * Logs the ready line once the database answers. A database that is down at start keeps
 * the process up but not ready: the log says so, and the ready line follows when it connects.
 * Rejects with UnknownMigrationsError when the database was migrated by a newer release.
 */
export async function announceWhenReady(
  app: NestFastifyApplication,
  config: AppConfig,
  envFile?: string,
): Promise<void> {
  const address = app.getHttpServer().address();
  const port =
    typeof address === 'object' && address ? address.port : config.port;
  const details = readyDetails(config, port, envFile);
  const database = app.get(DatabaseStateService);
  const waiting = setTimeout(() => {
    Logger.warn(
      `Listening at ${details.url}, waiting for the database (${details.database}): ` +
        'requests that need it answer 503 until it connects',
    );
  }, WAITING_NOTICE_MS);
  try {
    await database.whenConnected();
  } catch (error) {
    // A database a newer release migrated: the caller ends the process.
    if (error instanceof UnknownMigrationsError) throw error;
    return; // Shutting down before the database ever answered.
  } finally {
    clearTimeout(waiting);
  }
  Logger.log(readyLine(details));
  const passkeys = passkeyWarning(config.publicUrl);
  if (passkeys) Logger.warn(passkeys);
}
