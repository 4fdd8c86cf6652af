// File uploads end to end (docs/files.md): multipart posts with files, stored on the
// local disk, shown in the submission, downloaded by key, refused whole when any file is
// wrong, and deleted with their submission or form or when orphaned.
import { createHash } from 'node:crypto';
import { readdir, stat, utimes, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { OrphanFileSweep } from '../../../src/files/deletion/orphan-sweep.js';
import { StoredFile } from '../../../src/files/stored-file.entity.js';
import type { FieldDefinition } from '../../../src/forms/form.entity.js';
import { Submission } from '../../../src/submissions/submission.entity.js';
import {
  createAccount,
  createAccountApiKey,
} from '../../factories/accounts.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import { MULTIPART_TYPE, multipart, PDF, png } from '../../support/files.js';
import { expectProblem } from '../../support/answers.js';
import { request } from '../../support/http.js';
import { waitFor } from '../../support/server-process.js';
import {
  createTestApp,
  uploadsRoot,
  type TestApp,
} from '../../support/test-app.js';

const FIELDS: FieldDefinition[] = [
  { id: 'name', type: 'text', required: true },
  {
    id: 'cv',
    type: 'file',
    required: true,
    maxSize: 50_000,
    accept: ['application/pdf', 'image/*'],
  },
  { id: 'photos', type: 'file', maxFiles: 3, accept: ['image/*'] },
];

const sha256 = (bytes: Buffer) =>
  createHash('sha256').update(bytes).digest('hex');

/** Every file under `dir`, as paths relative to it. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, {
    recursive: true,
    withFileTypes: true,
  }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1))
    .sort();
}

describe('file uploads (e2e)', () => {
  let t: TestApp;
  let root: string;
  let accountId: string;
  let form: TestForm;

  beforeAll(async () => {
    t = await createTestApp({
      env: { UPLOAD_MAX_FILE_SIZE: '1000000', SUBMIT_RATE_LIMIT: '1000' },
    });
    root = uploadsRoot(t);
    accountId = (await createAccount(t)).account.id;
    form = await createForm(t, accountId, { fields: FIELDS });
  });
  afterAll(async () => {
    await t?.close();
  });

  const submitUrl = () => `${t.url}/api/submit/${form.form.id}`;
  const post = (body: Buffer) =>
    request(submitUrl(), {
      body,
      headers: { 'content-type': MULTIPART_TYPE },
    });
  const fileRows = () => t.dataSource.getRepository(StoredFile).find();
  const submissionCount = () =>
    t.dataSource.getRepository(Submission).countBy({ formId: form.form.id });

  async function expectNothingKept(before: number): Promise<void> {
    expect(await submissionCount()).toBe(before);
    expect(await filesUnder(root)).toEqual(
      (await fileRows())
        .map((row) => `forms/${row.formId}/${row.submissionId}/${row.id}`)
        .sort(),
    );
  }

  it('stores the files of a FormData post and shows them in the submission', async () => {
    const cv = PDF;
    const photo1 = png(20_000);
    const photo2 = png(300);
    const data = new FormData();
    data.append('name', 'Ada');
    data.append(
      'cv',
      new Blob([new Uint8Array(cv)], { type: 'text/html' }),
      'cv.pdf',
    );
    data.append('photos', new Blob([new Uint8Array(photo1)]), 'one.png');
    data.append('photos', new Blob([new Uint8Array(photo2)]), 'two.PNG');
    const response = await fetch(submitUrl(), { method: 'POST', body: data });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      success: true,
      message: 'Submission received',
    });

    const list = await request(
      `${t.url}/api/v1/forms/${form.form.id}/submissions`,
      { apiKey: form.apiKey },
    );
    const submission = list.body.data[0];
    expect(submission.data).toEqual({
      name: 'Ada',
      cv: {
        id: expect.any(String),
        name: 'cv.pdf',
        size: cv.length,
        // Judged from the bytes: what the client claimed (text/html) is ignored.
        type: 'application/pdf',
        sha256: sha256(cv),
      },
      photos: [
        {
          id: expect.any(String),
          name: 'one.png',
          size: photo1.length,
          type: 'image/png',
          sha256: sha256(photo1),
        },
        {
          id: expect.any(String),
          name: 'two.PNG',
          size: photo2.length,
          type: 'image/png',
          sha256: sha256(photo2),
        },
      ],
    });
    const rows = await t.dataSource
      .getRepository(StoredFile)
      .findBy({ submissionId: submission.id });
    expect(rows).toHaveLength(3);
    expect(rows.every((row) => row.accountId === accountId)).toBe(true);

    // Each file downloads as an attachment, byte for byte.
    const base = `${t.url}/api/v1/forms/${form.form.id}/submissions/${submission.id}/files`;
    for (const [value, bytes] of [
      [submission.data.cv, cv],
      [submission.data.photos[0], photo1],
      [submission.data.photos[1], photo2],
    ] as const) {
      const download = await fetch(`${base}/${value.id}`, {
        headers: { 'x-api-key': form.apiKey },
      });
      expect(download.status).toBe(200);
      expect(download.headers.get('content-type')).toBe(
        'application/octet-stream',
      );
      expect(download.headers.get('x-content-type-options')).toBe('nosniff');
      expect(download.headers.get('content-disposition')).toBe(
        `attachment; filename="${value.name}"; filename*=UTF-8''${value.name}`,
      );
      expect(Buffer.from(await download.arrayBuffer())).toEqual(bytes);
    }
  });

  it('answers another account, another form or an unknown file with 404', async () => {
    const data = new FormData();
    data.append('name', 'Bo');
    data.append('cv', new Blob([new Uint8Array(png())]), 'cv.png');
    expect(
      (await fetch(submitUrl(), { method: 'POST', body: data })).status,
    ).toBe(200);
    const [row] = await t.dataSource
      .getRepository(StoredFile)
      .find({ where: { fieldId: 'cv', name: 'cv.png' } });
    const path = `/api/v1/forms/${form.form.id}/submissions/${row.submissionId}/files/${row.id}`;
    const other = await createAccount(t);
    const otherKey = await createAccountApiKey(t, other.account.id);
    const otherForm = await createForm(t, accountId, { name: 'Other' });
    for (const apiKey of [otherKey, otherForm.apiKey]) {
      const response = await request(`${t.url}${path}`, { apiKey });
      expectProblem(response, 404, 'Form not found');
    }
    for (const wrong of [
      path.replace(row.id, 'AAAAAAAAAAAAAAAAAAAAAA'),
      path.replace(row.submissionId, '01JAAAAAAAAAAAAAAAAAAAAAAA'),
      path.replace(row.id, '..%2F..%2Fetc'),
    ]) {
      const response = await request(`${t.url}${wrong}`, {
        apiKey: form.apiKey,
      });
      expectProblem(response, 404, 'File not found');
    }
    expect(
      (await request(`${t.url}${path}`, { apiKey: form.apiKey })).status,
    ).toBe(200);
  });

  it('answers 413 to a file past its maxSize, and keeps nothing of the submission', async () => {
    const before = await submissionCount();
    const response = await post(
      multipart([
        { name: 'name', value: 'Cy' },
        { name: 'photos', filename: 'ok.png', bytes: png(1000) },
        { name: 'cv', filename: 'big.png', bytes: png(60_000) },
      ]),
    );
    expectProblem(response, 413, {
      error: 'File too large',
      errors: ['cv: larger than 50000 bytes'],
    });
    await expectNothingKept(before);
  });

  it('refuses HTML named .png, an empty file and text for a file field, naming the field', async () => {
    const before = await submissionCount();
    const cases: Array<[Buffer, string]> = [
      [
        multipart([
          { name: 'name', value: 'Di' },
          { name: 'photos', filename: 'fine.png', bytes: png() },
          {
            name: 'cv',
            filename: 'cat.png',
            bytes: Buffer.from('<!DOCTYPE html><script>alert(1)</script>'),
            type: 'image/png',
          },
        ]),
        'cv: the type of "cat.png" is not recognised from its content',
      ],
      [
        multipart([
          { name: 'name', value: 'Di' },
          { name: 'cv', filename: 'empty.pdf', bytes: Buffer.alloc(0) },
        ]),
        'cv: "empty.pdf" is empty',
      ],
      [
        multipart([
          { name: 'name', value: 'Di' },
          { name: 'cv', value: 'not a file' },
        ]),
        'cv: expected a file, not text',
      ],
      [
        multipart([
          { name: 'cv', filename: 'cv.pdf', bytes: PDF },
          { name: 'name', filename: 'name.png', bytes: png() },
        ]),
        'name: this field does not take files',
      ],
    ];
    for (const [body, message] of cases) {
      const response = await post(body);
      expect(response.status).toBe(400);
      expect(response.body.errors).toEqual([message]);
      await expectNothingKept(before);
    }
    const json = await request(submitUrl(), { json: { name: 'Ed' } });
    expect(json.status).toBe(400);
    expect(json.body.errors).toEqual(['cv is required']);
  });

  it('stores a file named with ../ under its own key, never outside the storage root', async () => {
    const response = await post(
      multipart([
        { name: 'name', value: 'Fa' },
        { name: 'cv', filename: '../../../../tmp/evil.png', bytes: png() },
      ]),
    );
    expect(response.status).toBe(200);
    const [row] = await t.dataSource
      .getRepository(StoredFile)
      .findBy({ name: 'evil.png' });
    expect(row).toBeDefined();
    expect(await filesUnder(root)).toContain(
      `forms/${form.form.id}/${row.submissionId}/${row.id}`,
    );
    await expect(stat(join(root, '..', 'tmp', 'evil.png'))).rejects.toThrow();
  });

  it('answers 400 to a multipart body cut short, and keeps nothing', async () => {
    const before = await submissionCount();
    const whole = multipart(
      [
        { name: 'name', value: 'Gi' },
        { name: 'cv', filename: 'cv.png', bytes: png(30_000) },
      ],
      false,
    );
    const response = await post(whole.subarray(0, 20_000));
    expect(response.status).toBe(400);
    expect(response.body.error).toMatch(
      /^Request body is not valid multipart\/form-data/,
    );
    await expectNothingKept(before);
  });

  it("deletes the files with their submission, and a form's files with the form", async () => {
    const data = new FormData();
    data.append('name', 'Hu');
    data.append('cv', new Blob([new Uint8Array(PDF)]), 'cv.pdf');
    expect(
      (await fetch(submitUrl(), { method: 'POST', body: data })).status,
    ).toBe(200);
    const [row] = await t.dataSource
      .getRepository(StoredFile)
      .find({ where: { name: 'cv.pdf' }, order: { createdAt: 'DESC' } });
    const key = `forms/${form.form.id}/${row.submissionId}/${row.id}`;
    expect(await filesUnder(root)).toContain(key);
    const deleted = await request(
      `${t.url}/api/v1/forms/${form.form.id}/submissions/${row.submissionId}`,
      { method: 'DELETE', apiKey: form.apiKey },
    );
    expect(deleted.status).toBe(204);
    expect(await filesUnder(root)).not.toContain(key);
    expect(
      await t.dataSource.getRepository(StoredFile).countBy({ id: row.id }),
    ).toBe(0);

    const doomed = await createForm(t, accountId, {
      name: 'Doomed',
      fields: FIELDS,
    });
    const upload = new FormData();
    upload.append('name', 'Io');
    upload.append('cv', new Blob([new Uint8Array(png())]), 'cv.png');
    const posted = await fetch(`${t.url}/api/submit/${doomed.form.id}`, {
      method: 'POST',
      body: upload,
    });
    expect(posted.status).toBe(200);
    expect(
      (await filesUnder(root)).some((path) =>
        path.startsWith(`forms/${doomed.form.id}/`),
      ),
    ).toBe(true);
    const gone = await request(`${t.url}/api/v1/forms/${doomed.form.id}`, {
      method: 'DELETE',
      apiKey: doomed.apiKey,
    });
    expect(gone.status).toBe(204);
    await waitFor(
      async () =>
        !(await filesUnder(root)).some((path) =>
          path.startsWith(`forms/${doomed.form.id}/`),
        ),
      5000,
    );
    expect(
      await t.dataSource
        .getRepository(StoredFile)
        .countBy({ formId: doomed.form.id }),
    ).toBe(0);
  });

  it('sweeps objects older than the orphan age that have no row, and keeps the rest', async () => {
    const orphanDir = join(
      root,
      'forms',
      form.form.id,
      '01JORPHAN00000000000000000',
    );
    await mkdir(orphanDir, { recursive: true });
    const orphan = join(orphanDir, 'orphanfile0000000000000');
    await writeFile(orphan, 'left by a crash');
    const partial = join(root, 'partial', 'stalepartial');
    await mkdir(join(root, 'partial'), { recursive: true });
    await writeFile(partial, 'half');
    const old = new Date(Date.now() - 2 * 3600_000);
    await utimes(orphan, old, old);
    await utimes(partial, old, old);
    const young = join(orphanDir, 'youngorphan000000000000');
    await writeFile(young, 'just written');
    // Every stored file of a committed submission is old too, and must stay.
    const kept = await fileRows();
    for (const row of kept) {
      const path = join(root, 'forms', row.formId, row.submissionId, row.id);
      await utimes(path, old, old);
    }
    const counts = await t.app.get(OrphanFileSweep).sweepOnce();
    expect(counts).toEqual({ files: 2 });
    const left = await filesUnder(root);
    expect(left).not.toContain(orphan.slice(root.length + 1));
    expect(left).not.toContain('partial/stalepartial');
    expect(left).toContain(young.slice(root.length + 1));
    for (const row of kept) {
      expect(left).toContain(
        `forms/${row.formId}/${row.submissionId}/${row.id}`,
      );
    }
  });

  it('accepts a submission whose only value is a file', async () => {
    const only = await createForm(t, accountId, {
      name: 'Only a file',
      fields: [{ id: 'doc', type: 'file', required: true }],
    });
    const response = await request(`${t.url}/api/submit/${only.form.id}`, {
      body: multipart([{ name: 'doc', filename: 'doc.pdf', bytes: PDF }]),
      headers: { 'content-type': MULTIPART_TYPE },
    });
    expect(response.status).toBe(200);
    const [row] = await t.dataSource
      .getRepository(Submission)
      .findBy({ formId: only.form.id });
    expect(row.data).toEqual({
      doc: {
        id: expect.any(String),
        name: 'doc.pdf',
        size: PDF.length,
        type: 'application/pdf',
        sha256: sha256(PDF),
      },
    });
  });

  it('refuses a form whose maxSize exceeds UPLOAD_MAX_FILE_SIZE', async () => {
    const response = await request(`${t.url}/api/v1/forms`, {
      apiKey: form.apiKey,
      json: {
        name: 'Huge',
        fields: [{ id: 'f', type: 'file', maxSize: 2_000_000 }],
      },
    });
    expectProblem(response, 400, {
      error: 'Validation failed',
      errors: [
        "fields.0.maxSize must be at most 1000000 (this server's UPLOAD_MAX_FILE_SIZE)",
      ],
    });
  });
});
