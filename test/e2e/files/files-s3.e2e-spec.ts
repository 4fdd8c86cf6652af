// Uploads stored in an S3-compatible bucket (STORAGE_URL=s3://…, a real s3rver on
// loopback, which enforces no limit of its own): a file posted with a submission lands in
// the bucket under forms/<formId>/<submissionId>/<fileId>, the key-protected download
// answers 302 to a 60-second presigned URL serving it as an attachment, a file past its
// field's maxSize is refused with nothing left in the bucket, and deleting the submission
// deletes the object.
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { createHash } from 'node:crypto';
import { createAccount, type TestAccount } from '../../factories/accounts.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import { request } from '../../support/http.js';
import {
  S3_TEST_CREDENTIALS,
  startS3Server,
  type S3Server,
} from '../../support/s3-server.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

describe('files in an S3-compatible bucket (e2e)', () => {
  let s3: S3Server;
  let t: TestApp;
  let owner: TestAccount;
  let form: TestForm;
  let client: S3Client;

  async function keysInBucket(): Promise<string[]> {
    const page = await client.send(
      new ListObjectsV2Command({ Bucket: s3.bucket }),
    );
    return (page.Contents ?? []).map((object) => object.Key ?? '').sort();
  }

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
    client = new S3Client({
      region: 'us-east-1',
      endpoint: s3.endpoint,
      forcePathStyle: true,
    });
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
    expect(await keysInBucket()).toEqual([key]);

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
    expect(await keysInBucket()).toEqual([]);
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
    expect(await keysInBucket()).toEqual([]);
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
