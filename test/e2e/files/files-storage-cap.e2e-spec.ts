// MAX_STORAGE_PER_ACCOUNT, the file storage an account may fill across its forms: an
// upload past it is refused with 413 and keeps nothing. It holds under concurrency: each
// file reserves its bytes of the cap (one conditional UPDATE on the account's counter)
// before they are written, so 16 uploads of 1 MB racing each other against a 5 MiB cap
// store at most what fits — the others get 413 "storage is full" and keep nothing — and an
// upload that is cut off gives back what it reserved. Run on MariaDB (TEST_DATABASE_URL)
// for real concurrency; on SQLite as well.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { StorageReservation } from '../../../src/files/reservations/storage-reservation.entity.js';
import { StoredFile } from '../../../src/files/stored-file.entity.js';
import type { FieldDefinition } from '../../../src/forms/form.entity.js';
import { createAccount } from '../../factories/accounts.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import { expectProblem } from '../../support/answers.js';
import {
  BOUNDARY,
  filesOnDisk,
  openUpload,
  png,
  postParts,
} from '../../support/files.js';
import {
  createTestApp,
  uploadsRoot,
  type TestApp,
} from '../../support/test-app.js';

const CAP = 5 * 1024 * 1024;
const FILE_BYTES = 1_000_000;
const FULL = {
  error: 'File too large',
  errors: ["cv: this account's file storage is full (MAX_STORAGE_PER_ACCOUNT)"],
};

const CV_FIELDS: FieldDefinition[] = [
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

/** The files kept under `dir`, those being written (`.partial`) left out. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && !entry.parentPath.includes('.partial'))
    .map((entry) => join(entry.parentPath, entry.name));
}

describe('the account storage cap under racing uploads (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      env: {
        MAX_STORAGE_PER_ACCOUNT: String(CAP),
        SUBMIT_RATE_LIMIT: '1000',
        TRUST_PROXY: '127.0.0.1',
      },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  const reserved = async (accountId: string) =>
    Number(
      (
        await t.dataSource
          .getRepository(StorageReservation)
          .findOneBy({ accountId })
      )?.reservedBytes ?? 0,
    );
  const storedBytes = async (accountId: string) =>
    (await t.dataSource.getRepository(StoredFile).findBy({ accountId })).reduce(
      (sum, file) => sum + Number(file.size),
      0,
    );
  const send = (form: TestForm, size: number, client: number) =>
    postParts(
      t,
      form.form.id,
      [{ name: 'cv', filename: 'cv.png', bytes: png(size) }],
      { 'x-forwarded-for': `198.51.100.${client}` },
    );

  it('stores 16 parallel 1 MB uploads only as far as a 5 MiB cap allows', async () => {
    const { account } = await createAccount(t);
    const form = await createForm(t, account.id, {
      fields: [{ id: 'cv', type: 'file', accept: ['image/*'] }],
    });
    const answers = await Promise.all(
      Array.from({ length: 16 }, (_, i) => send(form, FILE_BYTES, i + 1)),
    );
    const stored = answers.filter((answer) => answer.status === 200);
    const refused = answers.filter((answer) => answer.status === 413);
    expect(stored.length + refused.length).toBe(16);
    expect(stored.length).toBeGreaterThanOrEqual(1);
    expect(stored.length).toBeLessThanOrEqual(Math.floor(CAP / FILE_BYTES));
    for (const answer of refused) expect(answer.body).toEqual(FULL);

    const bytes = await storedBytes(account.id);
    expect(bytes).toBeLessThanOrEqual(CAP);
    expect(bytes).toBe(stored.length * FILE_BYTES);
    expect(
      await t.dataSource.getRepository(StoredFile).countBy({
        accountId: account.id,
      }),
    ).toBe(stored.length);
    expect(await filesUnder(uploadsRoot(t))).toHaveLength(stored.length);
    // Every upload has ended: nothing stays reserved.
    expect(await reserved(account.id)).toBe(0);
  });

  it('gives back what a cut-off upload reserved, so the room can be used again', async () => {
    const { account } = await createAccount(t);
    const form = await createForm(t, account.id, {
      fields: [{ id: 'cv', type: 'file', accept: ['image/*'] }],
    });
    const head = Buffer.concat([
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="cv"; filename="cv.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      png(4 * 1024 * 1024).subarray(0, 3 * 1024 * 1024),
    ]);
    // A client that sends 3 MiB of a 4 MiB file, then goes away.
    const { socket } = openUpload(
      t.url,
      `/api/submit/${form.form.id}`,
      head.length + 2 * 1024 * 1024,
      { 'X-Forwarded-For': '198.51.100.200' },
    );
    await new Promise<void>((resolve, reject) => {
      socket.write(head, () => {
        const poll = setInterval(() => {
          void reserved(account.id).then((bytes) => {
            if (bytes < 3 * 1024 * 1024) return;
            clearInterval(poll);
            socket.destroy();
            resolve();
          }, reject);
        }, 50);
      });
    });
    await expect.poll(() => reserved(account.id), { timeout: 10_000 }).toBe(0);
    expect(await storedBytes(account.id)).toBe(0);
    // The whole cap is free again: 5 files of 1 MB fit.
    for (let i = 0; i < 5; i++) {
      expect((await send(form, FILE_BYTES, 210 + i)).status).toBe(200);
    }
    const sixth = await send(form, FILE_BYTES, 220);
    expectProblem(sixth, 413, FULL);
    expect(await reserved(account.id)).toBe(0);
  });
});

describe('an account that has filled its file storage (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      env: { MAX_STORAGE_PER_ACCOUNT: '30000', SUBMIT_RATE_LIMIT: '1000' },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses an upload past MAX_STORAGE_PER_ACCOUNT with 413, and keeps nothing of it', async () => {
    const accountId = (await createAccount(t)).account.id;
    const first = await createForm(t, accountId, { fields: CV_FIELDS });
    const second = await createForm(t, accountId, {
      name: 'Second',
      fields: CV_FIELDS,
    });
    const send = (formId: string, size: number) =>
      postParts(t, formId, [
        { name: 'name', value: 'Jo' },
        { name: 'cv', filename: 'cv.png', bytes: png(size) },
      ]);
    expect((await send(first.form.id, 20_000)).status).toBe(200);
    // The cap is the account's, across its forms.
    const refused = await send(second.form.id, 20_000);
    expectProblem(refused, 413, FULL);
    expect(await t.dataSource.getRepository(StoredFile).count()).toBe(1);
    expect(await filesOnDisk(t)).toBe(1);
    // What is left still takes a smaller file.
    expect((await send(second.form.id, 5_000)).status).toBe(200);
  });
});
