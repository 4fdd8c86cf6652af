// Files in an S3-compatible bucket, against a real s3rver on loopback (which enforces no
// limit of its own): first the S3 file storage itself, keeping the promises the local-disk
// storage keeps — counted and hashed writes, nothing kept past the cap or of a broken
// upload, deletes, the orphan sweep's listing — and signing download links that serve the
// bytes as an attachment; then uploads end to end with STORAGE_URL=s3://…: a file posted
// with a submission lands under forms/<formId>/<submissionId>/<fileId>, the key-protected
// download answers 302 to a 60-second presigned URL, a file past its field's maxSize is
// refused with nothing left in the bucket, and deleting the submission deletes the object.
import {
  CreateBucketCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { createHash } from 'node:crypto';
import { PassThrough, Readable } from 'node:stream';
import { FileTooLargeError } from '../../../src/files/storage/file-storage.js';
import { S3FileStorage } from '../../../src/files/storage/s3-file-storage.js';
import { fileKey } from '../../../src/files/storage/storage-keys.js';
import { createAccount, type TestAccount } from '../../factories/accounts.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import {
  breakTwoWrites,
  writeFourDeleteTwo,
} from '../../support/file-storage-cases.js';
import { request } from '../../support/http.js';
import {
  keysInBucket,
  s3Client,
  S3_TEST_CREDENTIALS,
  startS3Server,
  type S3Server,
} from '../../support/s3-server.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

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

  const keys = () => keysInBucket(client, bucket);

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
    client = s3Client(s3);
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
    expect(await keys()).toEqual([
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
    expect(await keys()).toEqual([]);
  });

  it('keeps nothing when the source fails or stops before its end', async () => {
    await breakTwoWrites(storage);
    expect(await keys()).toEqual([]);
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
    expect(await keys()).toEqual([]);
  });

  it('answers a missing object as not found, and deletes objects and whole forms', async () => {
    await writeFourDeleteTwo(storage);
    expect(await keys()).toEqual(['forms/f1/s2/c', 'forms/f2/s3/d']);
    await storage.delete([fileKey('f2', 's3', 'd')]);
    await storage.deletePrefix('forms/f1/');
    expect(await keys()).toEqual([]);
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

describe('files in an S3-compatible bucket (e2e)', () => {
  let s3: S3Server;
  let t: TestApp;
  let owner: TestAccount;
  let form: TestForm;
  let client: S3Client;

  const keys = () => keysInBucket(client, s3.bucket);

  beforeAll(async () => {
    s3 = await startS3Server('formgate-e2e-files');
    // The SDK reads credentials from the environment, as a deployment's would.
    Object.assign(process.env, S3_TEST_CREDENTIALS);
    t = await createTestApp({ env: s3.env });
    owner = await createAccount(t);
    form = await createForm(t, owner.account.id, {
      fields: [
        { id: 'name', type: 'text', required: true },
        { id: 'resume', type: 'file', maxSize: 1024, accept: ['.pdf'] },
      ],
    });
    client = s3Client(s3);
  });
  afterAll(async () => {
    await t.close();
    await s3.close();
  });

  function post(file: Blob, name: string) {
    const body = new FormData();
    body.set('name', 'Ada');
    body.set('resume', file, name);
    return fetch(`${t.url}/api/submit/${form.form.id}`, {
      method: 'POST',
      headers: { accept: 'application/json' },
      body,
    });
  }

  it('stores the file in the bucket and downloads it through a presigned redirect', async () => {
    const pdf = Buffer.from(
      '%PDF-1.7\n1 0 obj\n<<>>\nendobj\ntrailer\n%%EOF\n',
    );
    const response = await post(new Blob([pdf]), 'cv (final) ü.pdf');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      success: true,
      message: 'Submission received',
    });

    const listed = await request(
      `${t.url}/api/v1/forms/${form.form.id}/submissions`,
      { apiKey: form.apiKey },
    );
    expect(listed.status).toBe(200);
    expect(listed.body.data).toHaveLength(1);
    const submissionId = listed.body.data[0].id as string;
    const resume = listed.body.data[0].data.resume as {
      id: string;
      name: string;
      size: number;
      type: string;
      sha256: string;
    };
    expect(resume).toEqual({
      id: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
      name: 'cv (final) ü.pdf',
      size: pdf.length,
      type: 'application/pdf',
      sha256: createHash('sha256').update(pdf).digest('hex'),
    });
    const key = `forms/${form.form.id}/${submissionId}/${resume.id}`;
    expect(await keys()).toEqual([key]);

    const download = await fetch(
      `${t.url}/api/v1/forms/${form.form.id}/submissions/${submissionId}/files/${resume.id}`,
      { headers: { 'x-api-key': form.apiKey }, redirect: 'manual' },
    );
    expect(download.status).toBe(302);
    expect(download.headers.get('x-content-type-options')).toBe('nosniff');
    const location = new URL(download.headers.get('location') ?? '');
    expect(location.origin).toBe(s3.endpoint);
    expect(location.pathname).toBe(`/${s3.bucket}/${key}`);
    expect(location.searchParams.get('X-Amz-Expires')).toBe('60');
    const object = await fetch(location);
    expect(object.status).toBe(200);
    expect(object.headers.get('content-type')).toBe('application/octet-stream');
    expect(object.headers.get('content-disposition')).toBe(
      `attachment; filename="cv (final) _.pdf"; filename*=UTF-8''cv%20%28final%29%20%C3%BC.pdf`,
    );
    expect(Buffer.from(await object.arrayBuffer()).equals(pdf)).toBe(true);

    // Deleting the submission deletes its object.
    const deleted = await request(
      `${t.url}/api/v1/forms/${form.form.id}/submissions/${submissionId}`,
      { apiKey: form.apiKey, method: 'DELETE' },
    );
    expect(deleted.status).toBe(204);
    expect(await keys()).toEqual([]);
  });

  it('refuses a file past maxSize with 413 and leaves nothing in the bucket', async () => {
    const before = await t.dataSource.query(
      'SELECT COUNT(*) AS n FROM submission WHERE formId = ?',
      [form.form.id],
    );
    const big = Buffer.concat([
      Buffer.from('%PDF-1.7\n'),
      Buffer.alloc(4096, 32),
    ]);
    const response = await post(new Blob([big]), 'big.pdf');
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({
      error: expect.any(String),
      errors: ['resume: larger than 1024 bytes'],
    });
    expect(await keys()).toEqual([]);
    const after = await t.dataSource.query(
      'SELECT COUNT(*) AS n FROM submission WHERE formId = ?',
      [form.form.id],
    );
    expect(Number(after[0].n)).toBe(Number(before[0].n));
  });

  it("answers 404 for another account's key, without signing a link", async () => {
    const other = await createAccount(t);
    const response = await fetch(
      `${t.url}/api/v1/forms/${form.form.id}/submissions/01ARZ3NDEKTSV4RRFFQ69G5FAV/files/AAAAAAAAAAAAAAAAAAAAAA`,
      { headers: { 'x-api-key': other.apiKey }, redirect: 'manual' },
    );
    expect(response.status).toBe(404);
    expect(response.headers.get('location')).toBeNull();
  });
});
