// The S3 file storage against a real S3-compatible server on loopback (s3rver): the same
// promises the local-disk storage keeps — counted and hashed writes, nothing kept past the
// cap or of a broken upload, deletes, the orphan sweep's listing — and presigned download
// links that serve the bytes as an attachment.
import {
  CreateBucketCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { createHash } from 'node:crypto';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FileTooLargeError } from '../../../src/files/storage/file-storage.js';
import { S3FileStorage } from '../../../src/files/storage/s3-file-storage.js';
import { fileKey } from '../../../src/files/storage/storage-keys.js';
import {
  S3_TEST_CREDENTIALS,
  startS3Server,
  type S3Server,
} from '../../support/s3-server.js';
import {
  breakTwoWrites,
  writeFourDeleteTwo,
} from '../../support/file-storage-cases.js';

async function bytes(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('S3FileStorage (s3rver on loopback)', () => {
  let s3: S3Server;
  let client: S3Client;
  let storage: S3FileStorage;
  let bucketNumber = 0;
  let bucket: string;

  /** Every key in the bucket, straight from the server. */
  async function keysInBucket(): Promise<string[]> {
    const page = await client.send(
      new ListObjectsV2Command({ Bucket: bucket }),
    );
    return (page.Contents ?? []).map((object) => object.Key ?? '').sort();
  }

  beforeAll(async () => {
    s3 = await startS3Server('formgate-s3-spec');
    for (const [name, value] of Object.entries(S3_TEST_CREDENTIALS)) {
      process.env[name] = value;
    }
  });
  afterAll(() => s3.close());

  beforeEach(async () => {
    bucketNumber += 1;
    bucket = `spec-${bucketNumber}-${Date.now()}`;
    const location = {
      bucket,
      endpoint: s3.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
    };
    storage = new S3FileStorage(location);
    client = new S3Client({
      region: 'us-east-1',
      endpoint: s3.endpoint,
      forcePathStyle: true,
      credentials: {
        accessKeyId: S3_TEST_CREDENTIALS.AWS_ACCESS_KEY_ID,
        secretAccessKey: S3_TEST_CREDENTIALS.AWS_SECRET_ACCESS_KEY,
      },
    });
    // A bucket per test.
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
  });

  it('streams a small file in one PUT and a large one in parts, counting size and SHA-256', async () => {
    const small = Buffer.from('hello '.repeat(1000));
    const large = Buffer.alloc(12 * 1024 * 1024 + 123);
    for (let i = 0; i < large.length; i += 4096) large[i] = i % 251;
    for (const [name, body] of [
      ['small', small],
      ['large', large],
    ] as const) {
      const key = fileKey('form1', 'sub1', name);
      const chunks = [];
      for (let i = 0; i < body.length; i += 64 * 1024) {
        chunks.push(body.subarray(i, i + 64 * 1024));
      }
      const written = await storage.write(key, Readable.from(chunks), {
        maxBytes: 20 * 1024 * 1024,
      });
      expect(written).toEqual({
        size: body.length,
        sha256: createHash('sha256').update(body).digest('hex'),
      });
      expect((await bytes(await storage.read(key))).equals(body)).toBe(true);
    }
    expect(await keysInBucket()).toEqual([
      'forms/form1/sub1/large',
      'forms/form1/sub1/small',
    ]);
  });

  it('refuses a stream past its byte cap, in one PUT or in parts, and keeps nothing of it', async () => {
    for (const [name, cap, chunk, count] of [
      ['small', 10, 8, 2],
      ['parts', 6 * 1024 * 1024, 1024 * 1024, 8],
    ] as const) {
      const source = new PassThrough();
      const writing = storage.write(fileKey('f', 's', name), source, {
        maxBytes: cap,
      });
      for (let i = 0; i < count; i += 1) source.write(Buffer.alloc(chunk, 1));
      source.end();
      await expect(writing).rejects.toBeInstanceOf(FileTooLargeError);
    }
    expect(await keysInBucket()).toEqual([]);
  });

  it('keeps nothing when the source fails or stops before its end', async () => {
    await breakTwoWrites(storage);
    expect(await keysInBucket()).toEqual([]);
  });

  it('accepts only keys it made', async () => {
    for (const key of ['../escape', 'forms/../../x', '/etc/passwd', '']) {
      await expect(
        storage.write(key, Readable.from(['x']), { maxBytes: 10 }),
      ).rejects.toThrow('not a storage key');
    }
    await expect(storage.read('../secret')).rejects.toThrow(
      'not a storage key',
    );
    expect(await keysInBucket()).toEqual([]);
  });

  it('answers a missing object as not found, and deletes objects and whole forms', async () => {
    await writeFourDeleteTwo(storage);
    expect(await keysInBucket()).toEqual(['forms/f1/s2/c', 'forms/f2/s3/d']);
    await storage.delete([fileKey('f2', 's3', 'd')]);
    await storage.deletePrefix('forms/f1/');
    expect(await keysInBucket()).toEqual([]);
  });

  it('lists objects older than a date in key order, a page at a time', async () => {
    const keys = [
      fileKey('formA', 's', 'x1'),
      fileKey('formA', 's', 'x2'),
      // Ids of one kind have one length, as Formgate's do ("-" sorts before letters).
      fileKey('form-', 's', 'y1'),
    ];
    for (const key of keys) {
      await storage.write(key, Readable.from(['.']), { maxBytes: 10 });
    }
    // Something that is not one of ours is never listed (nor swept).
    await client.send(
      new PutObjectCommand({ Bucket: bucket, Key: 'README.txt', Body: 'x' }),
    );
    expect(
      await storage.listOlderThan(new Date(Date.now() - 3600_000), 10),
    ).toEqual([]);
    const cutoff = new Date(Date.now() + 60_000);
    const first = await storage.listOlderThan(cutoff, 2);
    const second = await storage.listOlderThan(cutoff, 2, first.at(-1)!.key);
    // In the store's key order.
    expect([...first, ...second].map((object) => object.key)).toEqual([
      keys[2],
      keys[0],
      keys[1],
    ]);
    for (const object of first) {
      expect(object.modifiedAt.getTime()).toBeLessThan(cutoff.getTime());
    }
    expect(await storage.listOlderThan(cutoff, 10, keys[1])).toEqual([]);
  });

  it('signs a short-lived link that serves the bytes as an attachment with a safe name', async () => {
    const key = fileKey('f', 's', 'doc');
    const body = Buffer.from('%PDF-1.7 not really');
    await storage.write(key, Readable.from([body]), { maxBytes: 100 });
    const url = await storage.presignedUrl(
      key,
      'quarterly "report"/v2.pdf',
      60,
    );
    expect(new URL(url).searchParams.get('X-Amz-Expires')).toBe('60');
    expect(new URL(url).searchParams.get('X-Amz-Signature')).toMatch(
      /^[0-9a-f]{64}$/,
    );
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="quarterly _report__v2.pdf"; filename*=UTF-8''quarterly%20%22report%22_v2.pdf`,
    );
    expect(response.headers.get('content-type')).toBe(
      'application/octet-stream',
    );
    expect(Buffer.from(await response.arrayBuffer()).equals(body)).toBe(true);
  });
});
