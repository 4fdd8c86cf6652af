// A form's retentionDays: set, shown and refused through the forms API, and applied by the
// "retention" sweep, which deletes a form's submissions (clean and spam) older than that many
// days with their deliveries and attempts and stored files, and leaves newer rows and other
// forms alone.
import {
  FILE_STORAGE,
  type FileStorage,
} from '../../../src/files/storage/file-storage.js';
import { fileKey } from '../../../src/files/storage/storage-keys.js';
import { StoredFile } from '../../../src/files/stored-file.entity.js';
import { FormRetentionSweep } from '../../../src/submissions/deletion/form-retention-sweep.js';
import { SweepsService } from '../../../src/sweeps/sweeps.service.js';
import { createAccount, type TestAccount } from '../../factories/accounts.js';
import { insertSettledDelivery } from '../../factories/deliveries.js';
import { storeFile } from '../../factories/files.js';
import {
  CONTACT_FIELDS,
  createForm,
  type TestForm,
} from '../../factories/forms.js';
import {
  insertSubmissions,
  type SeedRow,
} from '../../factories/submissions.js';
import { errorBody } from '../../support/errors.js';
import { formsApi } from '../../support/forms-api.js';
import { expectProblem } from '../../support/answers.js';
import { request } from '../../support/http.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
const RANGE =
  'retentionDays must be 1 to 3650 days, or null to keep submissions';
const WHOLE = 'retentionDays must be a whole number of days, or null';

describe('form retention (e2e)', () => {
  let t: TestApp;
  let owner: TestAccount;

  beforeAll(async () => {
    // No background run: the tests run the sweep when they mean to.
    t = await createTestApp({ env: { SWEEP_INTERVAL_SECONDS: '0' } });
    owner = await createAccount(t);
  });
  afterAll(async () => {
    await t.close();
  });

  const { forms, formUrl, stored } = formsApi(() => t);

  /** The form's submissions still stored, by id. */
  async function storedIds(formId: string): Promise<string[]> {
    const rows: Array<{ id: string }> = await t.dataSource.query(
      'SELECT id FROM submission WHERE formId = ? ORDER BY id',
      [formId],
    );
    return rows.map((row) => row.id);
  }

  const count = async (sql: string, params: unknown[]) =>
    Number((await t.dataSource.query(sql, params))[0].n);

  async function withRetention(
    name: string,
    retentionDays: number | null,
  ): Promise<TestForm> {
    const form = await createForm(t, owner.account.id, { name });
    await t.dataSource.query('UPDATE form SET retentionDays = ? WHERE id = ?', [
      retentionDays,
      form.form.id,
    ]);
    return form;
  }

  describe('the forms API', () => {
    it('creates a form with retentionDays, shows it and stores it; null when omitted', async () => {
      const created = await request(forms(), {
        method: 'POST',
        apiKey: owner.apiKey,
        json: {
          name: 'Kept a year',
          fields: CONTACT_FIELDS,
          retentionDays: 365,
        },
      });
      expect(created.status).toBe(201);
      expect(created.body.retentionDays).toBe(365);
      expect(await stored(created.body.id)).toMatchObject({
        retentionDays: 365,
      });
      const read = await request(formUrl(created.body.id), {
        apiKey: owner.apiKey,
      });
      expect(read.body.retentionDays).toBe(365);

      const plain = await request(forms(), {
        method: 'POST',
        apiKey: owner.apiKey,
        json: { name: 'Kept forever' },
      });
      expect(plain.status).toBe(201);
      expect(plain.body.retentionDays).toBeNull();
      expect(await stored(plain.body.id)).toMatchObject({
        retentionDays: null,
      });
    });

    it('changes it with PATCH (null keeps submissions again) and resets it with a PUT that omits it', async () => {
      const form = await createForm(t, owner.account.id);
      const patch = (json: unknown) =>
        request(formUrl(form.form.id), {
          method: 'PATCH',
          apiKey: form.apiKey,
          json,
        });
      const set = await patch({ retentionDays: 30 });
      expect(set.status).toBe(200);
      expect(set.body.retentionDays).toBe(30);
      expect(await stored(form.form.id)).toMatchObject({ retentionDays: 30 });

      const renamed = await patch({ name: 'Renamed' });
      expect(renamed.body.retentionDays).toBe(30);

      const cleared = await patch({ retentionDays: null });
      expect(cleared.status).toBe(200);
      expect(cleared.body.retentionDays).toBeNull();
      expect(await stored(form.form.id)).toMatchObject({ retentionDays: null });

      await patch({ retentionDays: 3650 });
      const replaced = await request(formUrl(form.form.id), {
        method: 'PUT',
        apiKey: form.apiKey,
        json: { name: 'Contact' },
      });
      expect(replaced.status).toBe(200);
      expect(replaced.body.retentionDays).toBeNull();
      expect(await stored(form.form.id)).toMatchObject({ retentionDays: null });
    });

    it('refuses a retentionDays outside 1–3650 or not a whole number, changing nothing', async () => {
      const form = await createForm(t, owner.account.id);
      await request(formUrl(form.form.id), {
        method: 'PATCH',
        apiKey: form.apiKey,
        json: { retentionDays: 90 },
      });
      const cases: Array<[unknown, string]> = [
        [0, RANGE],
        [-5, RANGE],
        [3651, RANGE],
        [1.5, WHOLE],
        ['30', WHOLE],
        [true, WHOLE],
        [{ days: 30 }, WHOLE],
      ];
      for (const [value, message] of cases) {
        for (const method of ['PATCH', 'PUT'] as const) {
          const res = await request(formUrl(form.form.id), {
            method,
            apiKey: form.apiKey,
            json: { name: 'Contact', retentionDays: value },
          });
          expectProblem(
            res,
            400,
            errorBody('Validation failed', [message]),
            `${method} ${JSON.stringify(value)}`,
          );
        }
      }
      const create = await request(forms(), {
        method: 'POST',
        apiKey: owner.apiKey,
        json: { name: 'Bad', retentionDays: 0 },
      });
      expectProblem(create, 400, errorBody('Validation failed', [RANGE]));
      expect(await stored(form.form.id)).toMatchObject({ retentionDays: 90 });
    });
  });

  describe('the "retention" sweep', () => {
    it('deletes only what is older than retentionDays, spam included, with deliveries, attempts and files; newer rows and other forms stay', async () => {
      const now = Date.now();
      const ago = (ms: number) => new Date(now - ms);
      const monthly = await withRetention('Thirty days', 30);
      const quarterly = await withRetention('Ninety days', 90);
      const forever = await withRetention('Forever', null);

      // Thirty days: 1,200 rows just past the limit (several batches), two spam rows on
      // either side of it, and rows just inside it.
      const old: SeedRow[] = Array.from({ length: 1200 }, (_, i) => ({
        createdAt: ago(30 * DAY_MS + MINUTE_MS + i * 1000),
      }));
      const oldRows = await insertSubmissions(t, monthly.form.id, [
        ...old,
        { createdAt: ago(45 * DAY_MS), spamReasons: ['blocked-word'] },
      ]);
      const keptRows = await insertSubmissions(t, monthly.form.id, [
        { createdAt: ago(30 * DAY_MS - MINUTE_MS) },
        { createdAt: ago(DAY_MS) },
        { createdAt: ago(29 * DAY_MS), spamReasons: ['too-many-links'] },
      ]);
      // Ninety days: a row of 31 days stays, one of 91 goes.
      const [quarterOld, quarterKept] = await insertSubmissions(
        t,
        quarterly.form.id,
        [{ createdAt: ago(91 * DAY_MS) }, { createdAt: ago(31 * DAY_MS) }],
      );
      // No retention: years-old rows stay (spam within SPAM_RETENTION_DAYS too).
      const foreverRows = await insertSubmissions(t, forever.form.id, [
        { createdAt: ago(3 * 365 * DAY_MS) },
        { createdAt: ago(20 * DAY_MS), spamReasons: ['blocked-word'] },
      ]);

      // A settled delivery with an attempt for a deleted row and for a kept one.
      const deliveryFor = (submissionId: string) =>
        insertSettledDelivery(t, {
          formId: monthly.form.id,
          submissionId,
          status: 'dead',
        });
      const goneDelivery = await deliveryFor(oldRows[0].id);
      const keptDelivery = await deliveryFor(keptRows[0].id);
      // A stored file for a deleted row and for a kept one.
      const fileOf = (submissionId: string) =>
        storeFile(t, {
          formId: monthly.form.id,
          submissionId,
          accountId: owner.account.id,
        });
      const goneFile = await fileOf(oldRows[1].id);
      const keptFile = await fileOf(keptRows[1].id);

      const results = await t.app.get(SweepsService).runAll();
      expect(results.retention).toEqual({ submissions: 1202 });

      expect(await storedIds(monthly.form.id)).toEqual(
        keptRows.map((row) => row.id).sort(),
      );
      expect(await storedIds(quarterly.form.id)).toEqual([quarterKept.id]);
      expect(await storedIds(quarterly.form.id)).not.toContain(quarterOld.id);
      expect(await storedIds(forever.form.id)).toEqual(
        foreverRows.map((row) => row.id).sort(),
      );
      const deliveries = (id: string) =>
        count('SELECT COUNT(*) AS n FROM delivery WHERE id = ?', [id]);
      const attempts = (id: string) =>
        count(
          'SELECT COUNT(*) AS n FROM delivery_attempt WHERE deliveryId = ?',
          [id],
        );
      const files = t.dataSource.getRepository(StoredFile);
      expect(await files.findOneBy({ id: goneFile.id })).toBeNull();
      expect(await files.findOneBy({ id: keptFile.id })).not.toBeNull();
      const storage = t.app.get<symbol, FileStorage>(FILE_STORAGE, {
        strict: false,
      });
      const object = (file: StoredFile) =>
        storage.read(fileKey(file.formId, file.submissionId, file.id)).then(
          () => 'there',
          () => 'gone',
        );
      expect(await object(goneFile)).toBe('gone');
      expect(await object(keptFile)).toBe('there');
      expect(await deliveries(goneDelivery)).toBe(0);
      expect(await attempts(goneDelivery)).toBe(0);
      expect(await deliveries(keptDelivery)).toBe(1);
      expect(await attempts(keptDelivery)).toBe(1);

      expect(
        t.logs.some((line) =>
          line.includes('Sweep \\"retention\\" deleted 1202 submissions'),
        ),
      ).toBe(true);

      // Nothing more is due: a second run deletes nothing.
      await expect(t.app.get(FormRetentionSweep).sweepOnce()).resolves.toEqual({
        submissions: 0,
      });
    });

    it('stops between batches once shutdown begins', async () => {
      const form = await withRetention('Stopped', 1);
      await insertSubmissions(
        t,
        form.form.id,
        Array.from({ length: 300 }, (_, i) => ({
          createdAt: new Date(Date.now() - 2 * DAY_MS - i * 1000),
        })),
      );
      const stop = new AbortController();
      stop.abort();
      const counts = await t.app
        .get(FormRetentionSweep)
        .sweepOnce(Date.now(), stop.signal);
      expect(counts).toEqual({ submissions: 0 });
      expect((await storedIds(form.form.id)).length).toBe(300);
      await t.app.get(FormRetentionSweep).sweepOnce();
      expect(await storedIds(form.form.id)).toEqual([]);
    });
  });
});
