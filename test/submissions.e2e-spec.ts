import SwaggerParser from '@apidevtools/swagger-parser';
import { createAccount, type TestAccount } from './factories/accounts.js';
import { createForm, type TestForm } from './factories/forms.js';
import { Submission } from '../src/submissions/submission.entity.js';
import {
  SEARCH_SCAN_ROWS,
  SubmissionsService,
} from '../src/submissions/submissions.service.js';
import { request, type HttpResponse } from './support/http.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import {
  asApi,
  at,
  insertSubmissions,
  newestFirst,
} from './factories/submissions.js';
import {
  FORM_NOT_FOUND,
  INVALID_API_KEY,
  SUBMISSION_NOT_FOUND,
} from './support/errors.js';

interface SubmissionPage {
  data: Array<{ id: string }>;
  nextCursor: string | null;
}

const INVALID_CURSOR =
  'Invalid cursor: pass the nextCursor of the previous page unchanged';

describe('submissions API (e2e)', () => {
  let t: TestApp;
  let owner: TestAccount;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await createAccount(t);
  });
  afterAll(async () => {
    await t.close();
  });

  const repo = () => t.dataSource.getRepository(Submission);
  const base = (form: TestForm) =>
    `${t.url}/api/v1/forms/${form.form.id}/submissions`;
  const storedIds = async (form: TestForm) =>
    (
      await repo().find({
        where: { formId: form.form.id },
        order: { createdAt: 'DESC', id: 'DESC' },
      })
    ).map((row) => row.id);

  /** Follows nextCursor from the first page; returns every page's ids. */
  async function pageThrough(
    form: TestForm,
    query: string,
    between?: (page: number) => Promise<void>,
  ): Promise<string[][]> {
    const pages: string[][] = [];
    let cursor: string | null = null;
    do {
      const suffix: string = cursor
        ? `&cursor=${encodeURIComponent(cursor)}`
        : '';
      const res: HttpResponse<SubmissionPage> = await request(
        `${base(form)}?${query}${suffix}`,
        {
          apiKey: form.apiKey,
        },
      );
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(['data', 'nextCursor']);
      pages.push(res.body.data.map((s) => s.id));
      cursor = res.body.nextCursor;
      if (between) await between(pages.length);
      expect(pages.length).toBeLessThan(50);
    } while (cursor !== null);
    return pages;
  }

  describe('listing', () => {
    it('pages 7 rows two at a time, newest first, each exactly once (ties broken by id)', async () => {
      const form = await createForm(t, owner.account.id);
      const rows = await insertSubmissions(t, form.form.id, [
        { createdAt: at('2025-01-01T10:00:00.000Z') },
        {
          createdAt: at('2025-01-02T10:00:00.000Z'),
          id: '01JAAAAAAAAAAAAAAAAAAAAAA1',
        },
        {
          createdAt: at('2025-01-02T10:00:00.000Z'),
          id: '01JAAAAAAAAAAAAAAAAAAAAAA3',
        },
        {
          createdAt: at('2025-01-02T10:00:00.000Z'),
          id: '01JAAAAAAAAAAAAAAAAAAAAAA2',
        },
        { createdAt: at('2025-01-03T10:00:00.001Z') },
        { createdAt: at('2025-01-03T10:00:00.000Z') },
        { createdAt: at('2025-01-04T00:00:00.000Z') },
      ]);
      const expected = [...rows].sort(newestFirst).map((row) => row.id);

      const pages = await pageThrough(form, 'limit=2');

      expect(pages.map((page) => page.length)).toEqual([2, 2, 2, 1]);
      expect(pages.flat()).toEqual(expected);
      expect(new Set(pages.flat()).size).toBe(7);
      // The three rows sharing a timestamp come out in descending id order.
      expect(pages.flat().slice(3, 6)).toEqual([
        '01JAAAAAAAAAAAAAAAAAAAAAA3',
        '01JAAAAAAAAAAAAAAAAAAAAAA2',
        '01JAAAAAAAAAAAAAAAAAAAAAA1',
      ]);
    });

    it('returns the Submission shape and a null nextCursor on the last page', async () => {
      const form = await createForm(t, owner.account.id);
      const [row] = await insertSubmissions(t, form.form.id, [
        {
          createdAt: at('2025-02-03T04:05:06.789Z'),
          data: { name: 'Ada', email: 'ada@example.com', message: 'Hi' },
          ip: '198.51.100.4',
          userAgent: 'Mozilla/5.0',
          origin: null,
        },
      ]);
      const res = await request(base(form), { apiKey: form.apiKey });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        data: [
          {
            id: row.id,
            formId: form.form.id,
            data: { name: 'Ada', email: 'ada@example.com', message: 'Hi' },
            createdAt: '2025-02-03T04:05:06.789Z',
            meta: {
              ip: '198.51.100.4',
              userAgent: 'Mozilla/5.0',
              origin: null,
            },
          },
        ],
        nextCursor: null,
      });
    });

    it('answers an empty form with an empty page', async () => {
      const form = await createForm(t, owner.account.id);
      const res = await request(base(form), { apiKey: form.apiKey });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ data: [], nextCursor: null });
    });

    it('neither skips nor repeats older rows while new ones arrive between pages', async () => {
      const form = await createForm(t, owner.account.id);
      const older = await insertSubmissions(
        t,
        form.form.id,
        Array.from({ length: 6 }, (_, i) => ({
          // pairs of equal timestamps, so cursors land inside ties
          createdAt: new Date(Date.UTC(2025, 2, 1, 0, 0, Math.floor(i / 2))),
        })),
      );
      const expected = [...older].sort(newestFirst).map((row) => row.id);
      const arrived: string[] = [];

      const pages = await pageThrough(form, 'limit=2', async () => {
        const fresh = await insertSubmissions(t, form.form.id, [
          { createdAt: new Date() },
          { createdAt: new Date() },
        ]);
        arrived.push(...fresh.map((row) => row.id));
      });

      expect(pages.flat()).toEqual(expected);
      expect(pages.flat().filter((id) => arrived.includes(id))).toEqual([]);
      // The new rows are stored and lead a fresh first page.
      const first = await request(`${base(form)}?limit=100`, {
        apiKey: form.apiKey,
      });
      expect(first.body.data).toHaveLength(6 + arrived.length);
      expect(
        first.body.data.slice(-6).map((s: { id: string }) => s.id),
      ).toEqual(expected);
    });

    it('defaults to 25 rows a page and accepts up to 100', async () => {
      const form = await createForm(t, owner.account.id);
      await insertSubmissions(
        t,
        form.form.id,
        Array.from({ length: 101 }, (_, i) => ({
          createdAt: new Date(Date.UTC(2025, 3, 1) + i * 1000),
        })),
      );
      const byDefault = await request(base(form), { apiKey: form.apiKey });
      expect(byDefault.status).toBe(200);
      expect(byDefault.body.data).toHaveLength(25);
      expect(byDefault.body.nextCursor).toEqual(expect.any(String));

      const hundred = await request(`${base(form)}?limit=100`, {
        apiKey: form.apiKey,
      });
      expect(hundred.status).toBe(200);
      expect(hundred.body.data).toHaveLength(100);
      const rest = await request(
        `${base(form)}?limit=100&cursor=${hundred.body.nextCursor}`,
        { apiKey: form.apiKey },
      );
      expect(rest.body.data).toHaveLength(1);
      expect(rest.body.nextCursor).toBeNull();
    });

    it.each([
      ['0', 'limit must not be less than 1'],
      ['101', 'limit must not be greater than 100'],
      ['abc', 'limit must be an integer number'],
      ['1.5', 'limit must be an integer number'],
      ['', 'limit must not be less than 1'],
    ])(
      'rejects limit=%j with a 400 validation body',
      async (limit, message) => {
        const form = await createForm(t, owner.account.id);
        const res = await request(`${base(form)}?limit=${limit}`, {
          apiKey: form.apiKey,
        });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({
          error: 'Validation failed',
          errors: [message],
        });
      },
    );

    it('rejects a repeated limit parameter with a 400', async () => {
      const form = await createForm(t, owner.account.id);
      const res = await request(`${base(form)}?limit=2&limit=3`, {
        apiKey: form.apiKey,
      });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('Validation failed');
    });

    it.each([
      ['garbage', 'not-a-cursor'],
      ['base64 of junk', Buffer.from('hello world').toString('base64url')],
      [
        'a bad id inside',
        Buffer.from("1700000000000:x' OR 1=1").toString('base64url'),
      ],
      ['empty', ''],
    ])(
      'rejects a cursor that is %s with 400 {error}',
      async (_name, cursor) => {
        const form = await createForm(t, owner.account.id);
        const res = await request(
          `${base(form)}?cursor=${encodeURIComponent(cursor)}`,
          {
            apiKey: form.apiKey,
          },
        );
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: INVALID_CURSOR });
      },
    );

    it('rejects unknown query parameters', async () => {
      const form = await createForm(t, owner.account.id);
      const res = await request(`${base(form)}?offset=10`, {
        apiKey: form.apiKey,
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        error: 'Validation failed',
        errors: ['property offset should not exist'],
      });
    });

    it('accepts the key as the apiKey query parameter', async () => {
      const form = await createForm(t, owner.account.id);
      await insertSubmissions(t, form.form.id, [
        { createdAt: at('2025-01-01T00:00:00Z') },
      ]);
      const res = await request(`${base(form)}?apiKey=${form.apiKey}&limit=5`);
      expect(res.status).toBe(200);
      expect(res.body.data).toHaveLength(1);
    });
  });

  describe('from / to', () => {
    let form: TestForm;
    let rows: Submission[];
    beforeAll(async () => {
      form = await createForm(t, owner.account.id);
      rows = await insertSubmissions(t, form.form.id, [
        { createdAt: at('2025-05-01T00:00:00.000Z') }, // 0: exactly the start of May 1
        { createdAt: at('2025-05-01T23:59:59.999Z') }, // 1: last ms of May 1
        { createdAt: at('2025-05-02T00:00:00.000Z') }, // 2: exactly the start of May 2
        { createdAt: at('2025-04-30T23:59:59.999Z') }, // 3
        { createdAt: at('2025-05-10T12:00:00.000Z') }, // 4
      ]);
    });
    const ids = (...indexes: number[]) =>
      indexes
        .map((i) => rows[i])
        .sort(newestFirst)
        .map((row) => row.id);
    const list = async (query: string) => {
      const res = await request(`${base(form)}?${query}`, {
        apiKey: form.apiKey,
      });
      expect(res.status).toBe(200);
      return res.body.data.map((s: { id: string }) => s.id);
    };

    it('treats from as inclusive and to as exclusive', async () => {
      expect(await list('from=2025-05-01&to=2025-05-02')).toEqual(ids(0, 1));
      expect(
        await list('from=2025-05-01T00:00:00.000Z&to=2025-05-02T00:00:00.001Z'),
      ).toEqual(ids(0, 1, 2));
    });

    it('applies one bound alone', async () => {
      expect(await list('from=2025-05-02')).toEqual(ids(2, 4));
      expect(await list('to=2025-05-01')).toEqual(ids(3));
    });

    it('reads zone offsets (and a + decoded to a space)', async () => {
      // 2025-05-01T02:00+02:00 is midnight UTC
      expect(
        await list(
          `from=${encodeURIComponent('2025-05-01T02:00:00+02:00')}&to=2025-05-02`,
        ),
      ).toEqual(ids(0, 1));
      expect(
        await list('from=2025-05-01T02:00:00+02:00&to=2025-05-02'),
      ).toEqual(ids(0, 1));
    });

    it('pages within the bounds', async () => {
      const pages = await pageThrough(
        form,
        'limit=1&from=2025-05-01&to=2025-05-03',
      );
      expect(pages.flat()).toEqual(ids(0, 1, 2));
    });

    it.each([
      ['from', 'yesterday'],
      ['from', '2025-02-30'],
      ['to', '2025-13-01'],
      ['to', '2025-05-01T25:00:00Z'],
      ['from', '2025-W18'],
    ])('rejects %s=%s with 400', async (name, value) => {
      const res = await request(
        `${base(form)}?${name}=${encodeURIComponent(value)}`,
        {
          apiKey: form.apiKey,
        },
      );
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        error: 'Validation failed',
        errors: [
          `${name} must be an ISO 8601 date or date-time, e.g. 2025-05-01 or 2025-05-01T12:00:00Z`,
        ],
      });
    });

    it('rejects from later than to', async () => {
      const res = await request(`${base(form)}?from=2025-06-01&to=2025-05-01`, {
        apiKey: form.apiKey,
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'from must not be later than to' });
    });
  });

  describe('q search', () => {
    let form: TestForm;
    let rows: Submission[];
    beforeAll(async () => {
      form = await createForm(t, owner.account.id);
      const data = [
        {
          name: 'Ada Lovelace',
          email: 'ada@example.com',
          message: 'Analytical engine',
        },
        {
          name: 'Grace Hopper',
          email: 'grace@navy.example',
          message: 'COBOL, 100% reliable',
        },
        {
          name: 'Alan',
          email: 'alan@example.org',
          message: 'He said "hello" to me',
        },
        {
          name: 'Jürgen Ärger',
          email: 'j@example.de',
          message: 'path C:\\temp\\file_1',
        },
        {
          name: 'Email Person',
          email: 'e@example.net',
          message: 'value with email in it',
        },
        { name: 'Number', email: 'n@example.net', message: 'x', age: 42 },
        { name: 'Dots', email: 'd@example.net', message: 'line one\nline two' },
      ];
      rows = await insertSubmissions(
        t,
        form.form.id,
        data.map((d, i) => ({
          createdAt: new Date(Date.UTC(2025, 6, 1, 0, 0, i)),
          data: d as Submission['data'],
        })),
      );
    });
    const ids = (...indexes: number[]) =>
      indexes
        .map((i) => rows[i])
        .sort(newestFirst)
        .map((row) => row.id);
    const search = async (q: string, extra = '') => {
      const res = await request(
        `${base(form)}?q=${encodeURIComponent(q)}${extra}`,
        { apiKey: form.apiKey },
      );
      expect(res.status).toBe(200);
      return res.body.data.map((s: { id: string }) => s.id);
    };

    it('matches a substring of any value, ignoring case', async () => {
      expect(await search('LOVELACE')).toEqual(ids(0));
      expect(await search('example.com')).toEqual(ids(0));
      expect(await search('engine')).toEqual(ids(0));
    });

    it('matches values, not field names', async () => {
      // Every row has an "email" key; only one has the word in a value.
      expect(await search('email')).toEqual(ids(4));
      expect(await search('message')).toEqual([]);
    });

    it('takes % and _ literally', async () => {
      expect(await search('100%')).toEqual(ids(1));
      expect(await search('%')).toEqual(ids(1));
      expect(await search('file_1')).toEqual(ids(3));
      expect(await search('_')).toEqual(ids(3));
    });

    it('finds quotes, backslashes and newlines as written', async () => {
      expect(await search('"hello"')).toEqual(ids(2));
      expect(await search('C:\\temp')).toEqual(ids(3));
      expect(await search('one\nline')).toEqual(ids(6));
    });

    it('folds case beyond ASCII', async () => {
      expect(await search('ärger')).toEqual(ids(3));
      expect(await search('JÜRGEN')).toEqual(ids(3));
    });

    it('matches numbers by their digits', async () => {
      expect(await search('42')).toEqual(ids(5));
    });

    it('ignores surrounding blanks and an empty q', async () => {
      expect(await search('  hopper ')).toEqual(ids(1));
      expect(await search('')).toHaveLength(7);
    });

    it('combines with from/to and paging', async () => {
      expect(
        await search(
          'example',
          '&from=2025-07-01T00:00:01Z&to=2025-07-01T00:00:06Z',
        ),
      ).toEqual(ids(1, 2, 3, 4, 5));
      const pages = await pageThrough(form, 'limit=2&q=EXAMPLE.NET');
      expect(pages.flat()).toEqual(ids(4, 5, 6));
    });

    it('bounds the rows one search request examines, and the cursor resumes the scan exactly', async () => {
      const big = await createForm(t, owner.account.id);
      const total = SEARCH_SCAN_ROWS + 50;
      const rows = await insertSubmissions(
        t,
        big.form.id,
        Array.from({ length: total }, (_, i) => ({
          createdAt: new Date(Date.UTC(2025, 8, 1) + i * 10),
          data: {
            name: i === 0 || i === total - 1 ? 'Needle' : `Hay ${i}`,
            email: `h${i}@example.com`,
          },
        })),
      );
      const first = await request(`${base(big)}?q=needle&limit=25`, {
        apiKey: big.apiKey,
      });
      expect(first.status).toBe(200);
      // Only the newest needle lies within the first 10,000 rows examined.
      expect(first.body.data.map((s: { id: string }) => s.id)).toEqual([
        rows[total - 1].id,
      ]);
      expect(first.body.nextCursor).toEqual(expect.any(String));
      const second = await request(
        `${base(big)}?q=needle&limit=25&cursor=${first.body.nextCursor}`,
        { apiKey: big.apiKey },
      );
      expect(second.status).toBe(200);
      expect(second.body).toEqual({ data: [asApi(rows[0])], nextCursor: null });
    });

    it('rejects a q longer than 200 characters', async () => {
      const res = await request(`${base(form)}?q=${'a'.repeat(201)}`, {
        apiKey: form.apiKey,
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        error: 'Validation failed',
        errors: ['q must be shorter than or equal to 200 characters'],
      });
    });
  });

  describe('one submission', () => {
    it('reads one submission', async () => {
      const form = await createForm(t, owner.account.id);
      const [row] = await insertSubmissions(t, form.form.id, [
        {
          createdAt: at('2025-01-05T06:07:08.009Z'),
          data: { name: 'Ada', email: 'a@b.co' },
        },
      ]);
      const res = await request(`${base(form)}/${row.id}`, {
        apiKey: form.apiKey,
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(asApi(row));
    });

    it('answers 404 for an unknown id and for another form’s submission', async () => {
      const form = await createForm(t, owner.account.id);
      const other = await createForm(t, owner.account.id);
      const [foreign] = await insertSubmissions(t, other.form.id, [
        { createdAt: at('2025-01-01T00:00:00Z') },
      ]);
      for (const id of ['01JZZZZZZZZZZZZZZZZZZZZZZZ', foreign.id]) {
        const res = await request(`${base(form)}/${id}`, {
          apiKey: owner.apiKey,
        });
        expect(res.status).toBe(404);
        expect(res.body).toEqual(SUBMISSION_NOT_FOUND);
      }
    });

    it('deletes one submission and keeps the others', async () => {
      const form = await createForm(t, owner.account.id);
      const rows = await insertSubmissions(t, form.form.id, [
        { createdAt: at('2025-01-01T00:00:00Z') },
        { createdAt: at('2025-01-02T00:00:00Z') },
      ]);
      const res = await request(`${base(form)}/${rows[0].id}`, {
        method: 'DELETE',
        apiKey: form.apiKey,
      });
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect(await storedIds(form)).toEqual([rows[1].id]);

      const again = await request(`${base(form)}/${rows[0].id}`, {
        method: 'DELETE',
        apiKey: form.apiKey,
      });
      expect(again.status).toBe(404);
      expect(again.body).toEqual(SUBMISSION_NOT_FOUND);
      const read = await request(`${base(form)}/${rows[0].id}`, {
        apiKey: form.apiKey,
      });
      expect(read.status).toBe(404);
    });

    it('does not delete another form’s submission through this form', async () => {
      const form = await createForm(t, owner.account.id);
      const other = await createForm(t, owner.account.id);
      const [foreign] = await insertSubmissions(t, other.form.id, [
        { createdAt: at('2025-01-01T00:00:00Z') },
      ]);
      const res = await request(`${base(form)}/${foreign.id}`, {
        method: 'DELETE',
        apiKey: owner.apiKey,
      });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(SUBMISSION_NOT_FOUND);
      expect(await storedIds(other)).toEqual([foreign.id]);
    });
  });

  describe('bulk delete', () => {
    it('deletes the rows in [from, to) and reports the count', async () => {
      const form = await createForm(t, owner.account.id);
      const rows = await insertSubmissions(t, form.form.id, [
        { createdAt: at('2025-04-30T23:59:59.999Z') },
        { createdAt: at('2025-05-01T00:00:00.000Z') },
        { createdAt: at('2025-05-15T00:00:00.000Z') },
        { createdAt: at('2025-05-31T23:59:59.999Z') },
        { createdAt: at('2025-06-01T00:00:00.000Z') },
      ]);
      const res = await request(`${base(form)}?from=2025-05-01&to=2025-06-01`, {
        method: 'DELETE',
        apiKey: form.apiKey,
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ deleted: 3 });
      expect(await storedIds(form)).toEqual([rows[4].id, rows[0].id]);
    });

    it('deletes every row of the form without bounds, more than one batch included', async () => {
      const form = await createForm(t, owner.account.id);
      const other = await createForm(t, owner.account.id);
      await insertSubmissions(
        t,
        form.form.id,
        Array.from({ length: 1203 }, (_, i) => ({
          createdAt: new Date(Date.UTC(2025, 0, 1) + Math.floor(i / 3)),
        })),
      );
      const [kept] = await insertSubmissions(t, other.form.id, [
        { createdAt: at('2025-01-01T00:00:00Z') },
      ]);
      const res = await request(base(form), {
        method: 'DELETE',
        apiKey: form.apiKey,
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ deleted: 1203 });
      expect(await repo().countBy({ formId: form.form.id })).toBe(0);
      expect(await storedIds(other)).toEqual([kept.id]);

      const none = await request(base(form), {
        method: 'DELETE',
        apiKey: form.apiKey,
      });
      expect(none.body).toEqual({ deleted: 0 });
    });

    it('rejects bad bounds and a q parameter', async () => {
      const form = await createForm(t, owner.account.id);
      await insertSubmissions(t, form.form.id, [
        { createdAt: at('2025-01-01T00:00:00Z') },
      ]);
      const bad = await request(`${base(form)}?from=soon`, {
        method: 'DELETE',
        apiKey: form.apiKey,
      });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toBe('Validation failed');
      const q = await request(`${base(form)}?q=x`, {
        method: 'DELETE',
        apiKey: form.apiKey,
      });
      expect(q.status).toBe(400);
      expect(q.body).toEqual({
        error: 'Validation failed',
        errors: ['property q should not exist'],
      });
      expect(await repo().countBy({ formId: form.form.id })).toBe(1);
    });
  });

  describe('access', () => {
    let form: TestForm;
    let sibling: TestForm;
    let stranger: TestAccount;
    let strangerForm: TestForm;
    let row: Submission;
    beforeAll(async () => {
      form = await createForm(t, owner.account.id);
      sibling = await createForm(t, owner.account.id);
      stranger = await createAccount(t);
      strangerForm = await createForm(t, stranger.account.id);
      [row] = await insertSubmissions(t, form.form.id, [
        { createdAt: at('2025-01-01T00:00:00Z') },
      ]);
    });
    const routes = (): Array<[string, string]> => [
      ['GET', base(form)],
      ['GET', `${base(form)}/export`],
      ['GET', `${base(form)}/export?format=ndjson`],
      ['GET', `${base(form)}/${row.id}`],
      ['DELETE', `${base(form)}/${row.id}`],
      ['DELETE', base(form)],
    ];

    it('answers 404 "Form not found" to another form’s key on every route', async () => {
      for (const [method, url] of routes()) {
        for (const apiKey of [
          sibling.apiKey,
          strangerForm.apiKey,
          stranger.apiKey,
        ]) {
          const res = await request(url, { method, apiKey });
          expect(res.status, `${method} ${url}`).toBe(404);
          expect(res.body).toEqual(FORM_NOT_FOUND);
        }
      }
      expect(await storedIds(form)).toEqual([row.id]);
    });

    it('answers 401 without a key and 403 with an unknown key on every route', async () => {
      for (const [method, url] of routes()) {
        const none = await request(url, { method });
        expect(none.status).toBe(401);
        expect(none.body).toEqual({
          error:
            'API key required: send it in the x-api-key header or the apiKey query parameter',
        });
        const wrong = await request(url, {
          method,
          apiKey: 'fgk_not-a-real-key-0000000000',
        });
        expect(wrong.status).toBe(403);
        expect(wrong.body).toEqual(INVALID_API_KEY);
      }
      expect(await storedIds(form)).toEqual([row.id]);
    });

    it('lets the account key reach every form of the account', async () => {
      for (const target of [form, sibling]) {
        const res = await request(base(target), { apiKey: owner.apiKey });
        expect(res.status).toBe(200);
      }
      const res = await request(`${base(form)}/${row.id}`, {
        apiKey: owner.apiKey,
      });
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(row.id);
    });

    it('answers 404 for a form id that does not exist', async () => {
      const res = await request(`${t.url}/api/v1/forms/nope/submissions`, {
        apiKey: owner.apiKey,
      });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(FORM_NOT_FOUND);
    });
  });

  describe('service for the dashboard', () => {
    it('counts submissions and the latest time per form', async () => {
      const a = await createForm(t, owner.account.id);
      const b = await createForm(t, owner.account.id);
      await insertSubmissions(t, a.form.id, [
        { createdAt: at('2025-01-01T00:00:00.000Z') },
        { createdAt: at('2025-03-01T00:00:00.123Z') },
      ]);
      const stats = await t.app
        .get(SubmissionsService)
        .countByForms([a.form.id, b.form.id]);
      expect(stats.get(a.form.id)).toEqual({
        count: 2,
        lastAt: at('2025-03-01T00:00:00.123Z'),
      });
      expect(stats.get(b.form.id)).toEqual({ count: 0, lastAt: null });
    });
  });

  describe('OpenAPI', () => {
    it('documents every submissions route with parameters and responses', async () => {
      const res = await request(`${t.url}/docs-json`);
      expect(res.status).toBe(200);
      const doc = res.body;
      await SwaggerParser.validate(structuredClone(doc));
      const list = doc.paths['/api/v1/forms/{id}/submissions'];
      expect(
        list.get.parameters.map((p: { name: string }) => p.name).sort(),
      ).toEqual(['cursor', 'from', 'id', 'limit', 'q', 'to']);
      for (const status of ['200', '400', '401', '403', '404']) {
        expect(list.get.responses[status], `list ${status}`).toBeDefined();
      }
      expect(Object.keys(list.delete.responses)).toEqual(
        expect.arrayContaining(['200', '400', '401', '403', '404']),
      );
      const one = doc.paths['/api/v1/forms/{id}/submissions/{submissionId}'];
      expect(Object.keys(one.get.responses)).toEqual(
        expect.arrayContaining(['200', '401', '403', '404']),
      );
      expect(Object.keys(one.delete.responses)).toEqual(
        expect.arrayContaining(['204', '401', '403', '404']),
      );
      const exp = doc.paths['/api/v1/forms/{id}/submissions/export'];
      expect(Object.keys(exp.get.responses['200'].content)).toEqual([
        'text/csv',
        'application/x-ndjson',
      ]);
      const format = exp.get.parameters.find(
        (p: { name: string }) => p.name === 'format',
      );
      expect(format.schema.enum).toEqual(['csv', 'ndjson']);
      const schema = doc.components.schemas.SubmissionDto;
      expect(Object.keys(schema.properties).sort()).toEqual([
        'createdAt',
        'data',
        'formId',
        'id',
        'meta',
      ]);
      expect(list.get.security).toEqual([
        { apiKeyHeader: [] },
        { apiKeyQuery: [] },
      ]);
    });
  });
});
