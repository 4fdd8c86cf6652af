// GET /api/v1/forms/:id/submissions: keyset pages newest first, cursors, and from/to.
// Search, single submissions, deletion, access and OpenAPI are in submissions-*.e2e-spec.ts.
import { createAccount, type TestAccount } from '../../factories/accounts.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import { Submission } from '../../../src/submissions/submission.entity.js';
import { expectProblem } from '../../support/answers.js';
import { request } from '../../support/http.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import {
  at,
  insertSubmissions,
  newestFirst,
} from '../../factories/submissions.js';
import { submissionsApi } from '../../support/submissions-api.js';

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

  const { base, pageThrough } = submissionsApi(() => t);

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
            spam: false,
            spamReasons: [],
            status: 'new',
            assignee: null,
            labels: [],
            noteCount: 0,
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
        expectProblem(res, 400, {
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
        expectProblem(res, 400, { error: INVALID_CURSOR });
      },
    );

    it('rejects unknown query parameters', async () => {
      const form = await createForm(t, owner.account.id);
      const res = await request(`${base(form)}?offset=10`, {
        apiKey: form.apiKey,
      });
      expectProblem(res, 400, {
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
      expectProblem(res, 400, {
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
      expectProblem(res, 400, 'from must not be later than to');
    });
  });
});
