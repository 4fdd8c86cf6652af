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
      concurrencyPerIp: 4,
      clamavUrl: undefined,
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
      UPLOAD_CONCURRENCY_PER_IP: '2',
      MAX_STORAGE_PER_ACCOUNT: '0',
    });
    expect(config).toEqual({
      storage: { kind: 'file', root: '/var/lib/formgate/files' },
      maxFileSize: 1_048_576,
      bodyLimit: 5_242_880,
      orphanAgeSeconds: 60,
      idleTimeoutMs: 2000,
      concurrencyPerIp: 2,
      clamavUrl: undefined,
      maxStoragePerAccount: 0,
    });
  });

  it('reads an S3-compatible bucket with its endpoint, region and path style', () => {
    expect(
      parseUploadConfig({
        STORAGE_URL: 's3://formgate-files',
        S3_ENDPOINT: 'http://127.0.0.1:9000',
        S3_REGION: 'eu-central-1',
        S3_FORCE_PATH_STYLE: 'true',
      }).storage,
    ).toEqual({
      kind: 's3',
      bucket: 'formgate-files',
      endpoint: 'http://127.0.0.1:9000',
      region: 'eu-central-1',
      forcePathStyle: true,
    });
    expect(
      parseUploadConfig({ STORAGE_URL: 's3://my.bucket/' }).storage,
    ).toEqual({
      kind: 's3',
      bucket: 'my.bucket',
      endpoint: undefined,
      region: 'us-east-1',
      forcePathStyle: false,
    });
    for (const [env, variable] of [
      [{ STORAGE_URL: 's3://' }, 'STORAGE_URL'],
      [{ STORAGE_URL: 's3://Upper_Case' }, 'STORAGE_URL'],
      [
        { STORAGE_URL: 's3://ok-bucket', S3_ENDPOINT: 'minio:9000' },
        'S3_ENDPOINT',
      ],
      [
        { STORAGE_URL: 's3://ok-bucket', S3_FORCE_PATH_STYLE: 'yes' },
        'S3_FORCE_PATH_STYLE',
      ],
    ] as const) {
      expect(() => parseUploadConfig(env)).toThrow(variable);
    }
  });

  it('reads the address of clamd, and refuses one that is not tcp://host:port', () => {
    expect(
      parseUploadConfig({ CLAMAV_URL: 'tcp://127.0.0.1:3310' }).clamavUrl,
    ).toBe('tcp://127.0.0.1:3310');
    for (const url of [
      'http://clamd:3310',
      'clamd:3310',
      'tcp://',
      'tcp://h:3310/x',
    ]) {
      expect(() => parseUploadConfig({ CLAMAV_URL: url })).toThrow(
        'CLAMAV_URL',
      );
    }
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
