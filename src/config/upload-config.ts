// File uploads (docs/files.md): where files are stored and how large they and the bodies
// carrying them may be. Checked at boot like every setting.
import { resolve } from 'node:path';
import { ConfigError } from './config-error.js';
import { read, wholeNumber, type Env } from './env-values.js';

/** Where stored files live: a directory on local disk, or a bucket of an S3-compatible store. */
export type StorageLocation =
  | { kind: 'file'; root: string }
  | {
      kind: 's3';
      bucket: string;
      /** S3_ENDPOINT: the store's address (AWS's own endpoint for the region when unset). */
      endpoint?: string;
      region: string;
      forcePathStyle: boolean;
    };

export interface UploadConfig {
  storage: StorageLocation;
  /** Largest file a form may accept (a `file` field's `maxSize` is at most this). */
  maxFileSize: number;
  /** Largest multipart body that carries files (text-only bodies keep SUBMIT_BODY_LIMIT). */
  bodyLimit: number;
  /** Stored objects without a row are deleted by the sweep once this old. */
  orphanAgeSeconds: number;
  /**
   * Milliseconds an upload body may go without a byte before it is cut (408): a body
   * that keeps arriving is never cut by the request timeout.
   */
  idleTimeoutMs: number;
  /**
   * Multipart bodies to forms with file fields one client address may have in flight on
   * an instance; the next is refused (429) before its body is read.
   */
  concurrencyPerIp: number;
  /** CLAMAV_URL: clamd to stream each file to (tcp://host:port), or none. */
  clamavUrl?: string;
  /** Bytes an account's stored files may add up to; an upload past it is refused (413). */
  maxStoragePerAccount: number;
}

export const MIB = 1024 * 1024;
export const DEFAULT_STORAGE_URL = 'file:./data/uploads';

/** An S3 bucket name: 3–63 lowercase letters, digits, dots and hyphens. */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

function s3Location(url: string, env: Env): StorageLocation {
  const bucket = url.slice('s3://'.length).replace(/\/$/, '');
  if (!BUCKET.test(bucket)) {
    throw new ConfigError(
      'STORAGE_URL',
      `needs a bucket name after "s3://" (3–63 lowercase letters, digits, dots and hyphens), got "${url}"`,
    );
  }
  const endpoint = read(env, 'S3_ENDPOINT');
  if (endpoint !== undefined && !/^https?:\/\/[^/\s]+/.test(endpoint)) {
    throw new ConfigError(
      'S3_ENDPOINT',
      `must be an http(s) URL, got "${endpoint}"`,
    );
  }
  const pathStyle = read(env, 'S3_FORCE_PATH_STYLE') ?? 'false';
  if (pathStyle !== 'true' && pathStyle !== 'false') {
    throw new ConfigError(
      'S3_FORCE_PATH_STYLE',
      `must be true or false, got "${pathStyle}"`,
    );
  }
  return {
    kind: 's3',
    bucket,
    endpoint,
    region: read(env, 'S3_REGION') ?? read(env, 'AWS_REGION') ?? 'us-east-1',
    forcePathStyle: pathStyle === 'true',
  };
}

export function parseStorageUrl(
  raw: string | undefined,
  env: Env = {},
): StorageLocation {
  const url = raw ?? DEFAULT_STORAGE_URL;
  if (url.startsWith('s3://')) return s3Location(url, env);
  if (url.startsWith('file:')) {
    const path = url.slice('file:'.length).replace(/^\/\/(?=\/)/, '');
    if (path === '' || path.includes('\0')) {
      throw new ConfigError('STORAGE_URL', 'needs a directory after "file:"');
    }
    return { kind: 'file', root: resolve(path) };
  }
  throw new ConfigError(
    'STORAGE_URL',
    `must be file:<directory> (e.g. ${DEFAULT_STORAGE_URL}) or s3://<bucket>, got "${url}"`,
  );
}

function clamavUrl(env: Env): string | undefined {
  const raw = read(env, 'CLAMAV_URL');
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    url = new URL('invalid:');
  }
  if (url.protocol !== 'tcp:' || url.hostname === '' || url.pathname !== '') {
    throw new ConfigError(
      'CLAMAV_URL',
      `must be tcp://host:port (clamd's TCP socket, usually port 3310), got "${raw}"`,
    );
  }
  return raw;
}

export function parseUploadConfig(env: Env): UploadConfig {
  const maxFileSize = wholeNumber(
    env,
    'UPLOAD_MAX_FILE_SIZE',
    25 * MIB,
    1,
    1024 * MIB,
  );
  const bodyLimit = wholeNumber(
    env,
    'UPLOAD_BODY_LIMIT',
    25 * MIB,
    1024,
    2048 * MIB,
  );
  return {
    storage: parseStorageUrl(read(env, 'STORAGE_URL'), env),
    maxFileSize,
    bodyLimit,
    orphanAgeSeconds: wholeNumber(
      env,
      'UPLOAD_ORPHAN_AGE_SECONDS',
      3600,
      1,
      604_800,
    ),
    idleTimeoutMs: wholeNumber(
      env,
      'UPLOAD_IDLE_TIMEOUT_MS',
      15_000,
      100,
      600_000,
    ),
    concurrencyPerIp: wholeNumber(env, 'UPLOAD_CONCURRENCY_PER_IP', 4, 1, 1000),
    clamavUrl: clamavUrl(env),
    maxStoragePerAccount: wholeNumber(
      env,
      'MAX_STORAGE_PER_ACCOUNT',
      1024 * MIB,
      0,
      Number.MAX_SAFE_INTEGER,
    ),
  };
}
