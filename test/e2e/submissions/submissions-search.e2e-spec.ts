// The q search of GET /api/v1/forms/:id/submissions: what matches, and the bounded scan window.
import { createAccount, type TestAccount } from '../../factories/accounts.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import { Submission } from '../../../src/submissions/submission.entity.js';
import { SEARCH_SCAN_ROWS } from '../../../src/submissions/submissions.service.js';
import { request } from '../../support/http.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import {
  asApi,
  insertSubmissions,
  newestFirst,
} from '../../factories/submissions.js';
import { submissionsApi } from '../../support/submissions-api.js';

describe('submissions API: q search (e2e)', () => {
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
});
