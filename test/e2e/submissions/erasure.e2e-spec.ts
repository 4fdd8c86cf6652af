// POST /api/v1/erasure and GET /api/v1/erasure/export: every submission of the account
// whose values hold an address (any case, any field, free text included) is exported or
// deleted with its deliveries; other accounts, near-miss addresses and other rows stay;
// only account keys may call (a read-only one may export); the address is never logged.
import { ulid } from 'ulid';
import { AccountsService } from '../../../src/accounts/accounts.service.js';
import { DeliveryAttempt } from '../../../src/notifications/deliveries/delivery-attempt.entity.js';
import { createAccount, type TestAccount } from '../../factories/accounts.js';
import { insertDelivery } from '../../factories/deliveries.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import {
  insertSubmissions,
  type SeedRow,
} from '../../factories/submissions.js';
import { errorBody } from '../../support/errors.js';
import { expectProblem } from '../../support/answers.js';
import { request } from '../../support/http.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

const ADDRESS = 'ada.lovelace@example.com';
const ACCOUNT_KEY_REQUIRED = errorBody(
  'This route needs an account key (fga_…): a form key reaches only its own form',
);
const READ_ONLY = errorBody(
  'This API key is read-only: it may only read (GET requests)',
);

describe('erasure and data-subject export (e2e)', () => {
  let t: TestApp;
  let owner: TestAccount;
  let contact: TestForm;
  let feedback: TestForm;
  let stranger: TestAccount;
  let strangerForm: TestForm;
  /** Submissions that hold the address, by form. */
  const holding: Record<string, string[]> = {};
  /** Submissions that must stay. */
  const keep: string[] = [];
  let matchedDelivery: string;
  let keptDelivery: string;

  const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000);

  async function seed(
    form: TestForm,
    rows: Array<{ data: SeedRow['data']; holds: boolean }>,
  ): Promise<string[]> {
    const stored = await insertSubmissions(
      t,
      form.form.id,
      rows.map((row, i) => ({
        createdAt: at(rows.length - i),
        data: row.data,
      })),
    );
    stored.forEach((submission, i) => {
      if (rows[i].holds) {
        (holding[form.form.id] ??= []).push(submission.id);
      } else keep.push(submission.id);
    });
    return stored.map((submission) => submission.id);
  }

  beforeAll(async () => {
    t = await createTestApp();
    owner = await createAccount(t);
    contact = await createForm(t, owner.account.id, { name: 'Contact' });
    feedback = await createForm(t, owner.account.id, {
      name: 'Feedback',
      fields: [],
    });
    await createForm(t, owner.account.id, { name: 'Untouched' });
    stranger = await createAccount(t);
    strangerForm = await createForm(t, stranger.account.id);

    // 2,600 rows in Contact (several scan windows), three of them holding the address.
    const filler = (i: number) => ({
      data: {
        name: `Person ${i}`,
        email: `person${i}@example.com`,
        message: 'Hello',
      },
      holds: false,
    });
    const contactRows: Array<{ data: SeedRow['data']; holds: boolean }> =
      Array.from({ length: 2600 }, (_, i) => filler(i));
    contactRows[10] = {
      data: { name: 'Ada', email: 'Ada.Lovelace@Example.COM', message: 'Hi' },
      holds: true,
    };
    contactRows[1300] = {
      data: {
        name: 'Someone',
        email: 'someone@example.org',
        message: `Please also reply to ${ADDRESS.toUpperCase()}, thanks.`,
      },
      holds: true,
    };
    contactRows[2599] = {
      data: { name: 'Ada', email: ADDRESS, message: null },
      holds: true,
    };
    // Near misses: other addresses that contain it, or that it contains.
    contactRows[20] = {
      data: { name: 'X', email: `grand${ADDRESS}`, message: 'x' },
      holds: false,
    };
    contactRows[21] = {
      data: { name: 'X', email: `${ADDRESS}.au`, message: 'x' },
      holds: false,
    };
    contactRows[22] = {
      data: {
        name: 'X',
        email: 'lovelace@example.com',
        message: ADDRESS.slice(0, 10),
      },
      holds: false,
    };
    // In a sentence of free text: a longer address that contains it is another address.
    contactRows[23] = {
      data: {
        name: 'X',
        email: 'x@example.org',
        message: `Write to x${ADDRESS.toUpperCase()} or to ${ADDRESS}.uk instead.`,
      },
      holds: false,
    };
    const contactIds = await seed(contact, contactRows);
    await seed(feedback, [
      { data: { text: `From: Ada <${ADDRESS}>`, rating: 5 }, holds: true },
      { data: { text: 'nothing here', rating: 3 }, holds: false },
    ]);
    // The spam folder is searched too (its own range of the index).
    const [spam] = await insertSubmissions(t, feedback.form.id, [
      {
        createdAt: at(30),
        data: { text: `Mail me: ${ADDRESS.replace('ada', 'AdA')}!`, rating: 1 },
        spamReasons: ['too-many-links'],
      },
    ]);
    holding[feedback.form.id].push(spam.id);
    await insertSubmissions(t, strangerForm.form.id, [
      { createdAt: at(1), data: { name: 'Ada', email: ADDRESS } },
    ]);

    const matched = await insertDelivery(t, {
      formId: contact.form.id,
      target: 'hook',
      submissionId: contactIds[10],
      event: 'submission.created',
      // Settled, so the worker leaves both alone.
      status: 'dead',
      nextAttemptAt: null,
    });
    const kept = await insertDelivery(t, {
      formId: contact.form.id,
      target: 'hook',
      submissionId: contactIds[11],
      event: 'submission.created',
      status: 'dead',
      nextAttemptAt: null,
    });
    matchedDelivery = matched.id;
    keptDelivery = kept.id;
    for (const deliveryId of [matched.id, kept.id]) {
      await t.dataSource.getRepository(DeliveryAttempt).insert({
        id: ulid(),
        deliveryId,
        at: new Date(),
        statusCode: 500,
        error: null,
        durationMs: 12,
      });
    }
  }, 120_000);
  afterAll(async () => {
    await t.close();
  });

  const eraseUrl = () => `${t.url}/api/v1/erasure`;
  const exportUrl = (email: string) =>
    `${t.url}/api/v1/erasure/export?email=${encodeURIComponent(email)}`;
  /** A streamed download, read as text (NDJSON is not one JSON document). */
  async function download(url: string, apiKey: string) {
    const res = await fetch(url, { headers: { 'x-api-key': apiKey } });
    return { status: res.status, headers: res.headers, text: await res.text() };
  }
  const allHolding = () => Object.values(holding).flat().sort();

  async function storedIds(ids: string[]): Promise<string[]> {
    const found: string[] = [];
    for (let i = 0; i < ids.length; i += 500) {
      const chunk = ids.slice(i, i + 500);
      const rows: Array<{ id: string }> = await t.dataSource.query(
        `SELECT id FROM submission WHERE id IN (${chunk.map(() => '?').join(', ')})`,
        chunk,
      );
      found.push(...rows.map((row) => row.id));
    }
    return found.sort();
  }

  const count = async (sql: string, params: unknown[] = []) =>
    Number((await t.dataSource.query(sql, params))[0].n);

  it('only answers account keys: a form key gets 403 on both routes', async () => {
    const erase = await request(eraseUrl(), {
      apiKey: contact.apiKey,
      json: { email: ADDRESS },
    });
    const exported = await request(exportUrl(ADDRESS), {
      apiKey: contact.apiKey,
    });
    for (const res of [erase, exported]) {
      expectProblem(res, 403, ACCOUNT_KEY_REQUIRED);
    }
    expect(await storedIds(allHolding())).toEqual(allHolding());
  });

  it('refuses a missing or malformed address with 400', async () => {
    const cases: Array<[unknown, string[]]> = [
      [{}, ['email is required']],
      [{ email: 'not an address' }, ['email must be a valid email address']],
      [{ email: ADDRESS, dryRun: 'yes' }, ['dryRun must be true or false']],
      [{ email: ADDRESS, formId: 'x' }, ['property formId should not exist']],
    ];
    for (const [json, errors] of cases) {
      const res = await request(eraseUrl(), { apiKey: owner.apiKey, json });
      expectProblem(
        res,
        400,
        errorBody('Validation failed', errors),
        JSON.stringify(json),
      );
    }
    const bad = await request(exportUrl('nope'), { apiKey: owner.apiKey });
    expectProblem(
      bad,
      400,
      errorBody('Validation failed', ['email must be a valid email address']),
    );
  });

  it('counts with dryRun, deleting nothing', async () => {
    const res = await request(eraseUrl(), {
      apiKey: owner.apiKey,
      json: { email: 'ADA.LOVELACE@example.com', dryRun: true },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ deleted: 5, forms: 2 });
    expect(await storedIds(allHolding())).toEqual(allHolding());
  });

  it('exports exactly the holding submissions as NDJSON, to a read-only key too', async () => {
    const { apiKey: readOnly } = await t.app
      .get(AccountsService)
      .createApiKey(owner.account.id, 'Reports', { readOnly: true });
    const res = await download(exportUrl(ADDRESS), readOnly);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(
      'application/x-ndjson; charset=utf-8',
    );
    expect(res.headers.get('content-disposition')).toBe(
      'attachment; filename="data-subject-export.ndjson"',
    );
    expect(res.headers.get('cache-control')).toBe('no-store');
    const lines = res.text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.map((line) => line.id as string).sort()).toEqual(allHolding());
    for (const line of lines) {
      expect(Object.keys(line)).toEqual([
        'id',
        'formId',
        'data',
        'createdAt',
        'meta',
        'spam',
        'spamReasons',
        'status',
        'assignee',
        'labels',
        'noteCount',
      ]);
      expect([contact.form.id, feedback.form.id]).toContain(line.formId);
    }
    // Form by form, oldest first within a form.
    const contactLines = lines.filter((l) => l.formId === contact.form.id);
    expect(contactLines.map((l) => l.id)).toEqual(holding[contact.form.id]);
    // The spam folder comes after the other submissions of its form.
    const feedbackLines = lines.filter((l) => l.formId === feedback.form.id);
    expect(feedbackLines.map((l) => [l.id, l.spam])).toEqual([
      [holding[feedback.form.id][0], false],
      [holding[feedback.form.id][1], true],
    ]);
    expect(contactLines[0].data).toEqual({
      name: 'Ada',
      email: 'Ada.Lovelace@Example.COM',
      message: 'Hi',
    });

    const refused = await request(eraseUrl(), {
      apiKey: readOnly,
      json: { email: ADDRESS },
    });
    expectProblem(refused, 403, READ_ONLY);
    expect(await storedIds(allHolding())).toEqual(allHolding());
  });

  it('erases them across forms with their deliveries, leaving everything else', async () => {
    const keptBefore = await storedIds(keep);
    expect(keptBefore.length).toBe(keep.length);
    const strangerBefore = await count(
      'SELECT COUNT(*) AS n FROM submission WHERE formId = ?',
      [strangerForm.form.id],
    );

    const res = await request(eraseUrl(), {
      apiKey: owner.apiKey,
      json: { email: ` ${ADDRESS.toUpperCase()} ` },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ deleted: 5, forms: 2 });

    expect(await storedIds(allHolding())).toEqual([]);
    expect(await storedIds(keep)).toEqual(keptBefore);
    expect(
      await count('SELECT COUNT(*) AS n FROM submission WHERE formId = ?', [
        strangerForm.form.id,
      ]),
    ).toBe(strangerBefore);
    expect(
      await count('SELECT COUNT(*) AS n FROM delivery WHERE id = ?', [
        matchedDelivery,
      ]),
    ).toBe(0);
    expect(
      await count(
        'SELECT COUNT(*) AS n FROM delivery_attempt WHERE deliveryId = ?',
        [matchedDelivery],
      ),
    ).toBe(0);
    expect(
      await count('SELECT COUNT(*) AS n FROM delivery WHERE id = ?', [
        keptDelivery,
      ]),
    ).toBe(1);
    expect(
      await count(
        'SELECT COUNT(*) AS n FROM delivery_attempt WHERE deliveryId = ?',
        [keptDelivery],
      ),
    ).toBe(1);

    const again = await request(eraseUrl(), {
      apiKey: owner.apiKey,
      json: { email: ADDRESS },
    });
    expect(again.body).toEqual({ deleted: 0, forms: 0 });
    const empty = await download(exportUrl(ADDRESS), owner.apiKey);
    expect(empty.status).toBe(200);
    expect(empty.text).toBe('');
  });

  it('never writes the address to the log, only that an erasure ran and its counts', () => {
    const lower = ADDRESS.toLowerCase();
    const leaked = t.logs.filter((line) => line.toLowerCase().includes(lower));
    expect(leaked).toEqual([]);
    expect(
      t.logs.filter((line) => line.toLowerCase().includes('lovelace')),
    ).toEqual([]);
    expect(
      t.logs.some(
        (line) =>
          line.includes(`Erasure for account ${owner.account.id}`) &&
          line.includes('5 submissions deleted in 2 forms'),
      ),
    ).toBe(true);
    // The export's request line was logged, with the parameter redacted.
    expect(
      t.logs.some((line) =>
        line.includes('/api/v1/erasure/export?email=[REDACTED]'),
      ),
    ).toBe(true);
  });
});
