import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MIB, parseUploadConfig } from './upload-config.js';

describe('parseUploadConfig', () => {
  it('stores on local disk under ./data/uploads with 25 MiB limits by default', () => {
    expect(parseUploadConfig({})).toEqual({
      storage: { kind: 'file', root: resolve('data/uploads') },
      maxFileSize: 25 * MIB,
      bodyLimit: 25 * MIB,
      orphanAgeSeconds: 3600,
      idleTimeoutMs: 15_000,
      maxStoragePerAccount: 1024 * MIB,
    });
  });

  it('reads a storage directory and the limits', () => {
    const config = parseUploadConfig({
      STORAGE_URL: 'file:///var/lib/formgate/files',
      UPLOAD_MAX_FILE_SIZE: '1048576',
      UPLOAD_BODY_LIMIT: '5242880',
      UPLOAD_ORPHAN_AGE_SECONDS: '60',
      UPLOAD_IDLE_TIMEOUT_MS: '2000',
      MAX_STORAGE_PER_ACCOUNT: '0',
    });
    expect(config).toEqual({
      storage: { kind: 'file', root: '/var/lib/formgate/files' },
      maxFileSize: 1_048_576,
      bodyLimit: 5_242_880,
      orphanAgeSeconds: 60,
      idleTimeoutMs: 2000,
      maxStoragePerAccount: 0,
    });
  });

  it('refuses a storage URL it cannot use and limits out of range, naming the variable', () => {
    expect(() => parseUploadConfig({ STORAGE_URL: 'ftp://host/x' })).toThrow(
      'STORAGE_URL',
    );
    expect(() => parseUploadConfig({ STORAGE_URL: 'file:' })).toThrow(
      'STORAGE_URL',
    );
    expect(() => parseUploadConfig({ UPLOAD_MAX_FILE_SIZE: '0' })).toThrow(
      'UPLOAD_MAX_FILE_SIZE',
    );
    expect(() => parseUploadConfig({ UPLOAD_BODY_LIMIT: '10MB' })).toThrow(
      'UPLOAD_BODY_LIMIT',
    );
  });
});
