import { createAccount, type TestAccount } from '../../factories/accounts.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import type { Submission } from '../../../src/submissions/submission.entity.js';
import { SEARCH_SCAN_ROWS } from '../../../src/submissions/submissions.service.js';
import { request } from '../../support/http.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import {
  asApi,
  at,
  insertSubmissions,
  newestFirst,
} from '../../factories/submissions.js';
import { parseCsv } from '../../support/csv.js';

const today = () => new Date().toISOString().slice(0, 10);

describe('submissions export (e2e)', () => {
  let t: TestApp;
  let owner: TestAccount;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await createAccount(t);
  });
  afterAll(async () => {
    await t.close();
  });

  const exportUrl = (form: TestForm, query = '') =>
    `${t.url}/api/v1/forms/${form.form.id}/submissions/export${query}`;

  describe('CSV', () => {
    let form: TestForm;
    let rows: Submission[];
    beforeAll(async () => {
      form = await createForm(t, owner.account.id, {
        name: 'Contact us! (Été)',
      });
      rows = await insertSubmissions(t, form.form.id, [
        {
          createdAt: at('2025-01-01T08:00:00.000Z'),
          data: {
            name: 'Ada, Countess',
            email: 'ada@example.com',
            message: 'Say "hi"',
          },
        },
        {
          createdAt: at('2025-01-02T08:00:00.000Z'),
          data: {
            name: 'Multi',
            email: 'm@example.com',
            message: 'line 1\r\nline 2\nline 3',
          },
        },
        {
          createdAt: at('2025-01-03T08:00:00.000Z'),
          data: {
            name: '=HYPERLINK("http://evil.example","x")',
            email: '+1@example.com',
            message: '-2+3',
          },
        },
        {
          createdAt: at('2025-01-04T08:00:00.000Z'),
          data: { name: '@SUM(A1)', email: '\tTabbed', message: '\rCarriage' },
        },
        {
          createdAt: at('2025-01-05T08:00:00.000Z'),
          // no message; an extra key that is not a configured field
          data: { name: 'Plain', email: 'p@example.com', extra: 'ignored' },
        },
      ]);
    });

    it('streams a CSV attachment with the field columns, newest first', async () => {
      const res = await fetch(exportUrl(form), {
        headers: { 'x-api-key': form.apiKey },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(res.headers.get('content-disposition')).toBe(
        `attachment; filename="contact-us-ete-submissions-${today()}.csv"`,
      );
      expect(res.headers.get('cache-control')).toBe('no-store');
      const text = await res.text();
      expect(text.endsWith('\r\n')).toBe(true);
      const records = parseCsv(text);
      expect(records[0]).toEqual([
        'id',
        'createdAt',
        'name',
        'email',
        'message',
        'status',
        'assignee',
        'labels',
      ]);
      const expected = [...rows].sort(newestFirst);
      expect(records.slice(1).map((r) => r[0])).toEqual(
        expected.map((r) => r.id),
      );
      expect(records.slice(1).map((r) => r[1])).toEqual(
        expected.map((r) => r.createdAt.toISOString()),
      );
      expect(records[5]).toEqual([
        rows[0].id,
        '2025-01-01T08:00:00.000Z',
        'Ada, Countess',
        'ada@example.com',
        'Say "hi"',
        'new',
        '',
        '',
      ]);
      expect(records[4]).toEqual([
        rows[1].id,
        '2025-01-02T08:00:00.000Z',
        'Multi',
        'm@example.com',
        'line 1\r\nline 2\nline 3',
        'new',
        '',
        '',
      ]);
      expect(records[1]).toEqual([
        rows[4].id,
        '2025-01-05T08:00:00.000Z',
        'Plain',
        'p@example.com',
        '',
        'new',
        '',
        '',
      ]);
    });

    it('quotes commas, quotes and line breaks as RFC 4180 says', async () => {
      const text = await (
        await fetch(exportUrl(form), { headers: { 'x-api-key': form.apiKey } })
      ).text();
      expect(text).toContain(
        `${rows[0].id},2025-01-01T08:00:00.000Z,"Ada, Countess",ada@example.com,"Say ""hi""",new,,\r\n`,
      );
      expect(text).toContain(
        `,Multi,m@example.com,"line 1\r\nline 2\nline 3",new,,\r\n`,
      );
    });

    it('neutralises cells that a spreadsheet would run as formulas', async () => {
      const text = await (
        await fetch(exportUrl(form), { headers: { 'x-api-key': form.apiKey } })
      ).text();
      const records = parseCsv(text);
      expect(records[3].slice(2)).toEqual([
        `'=HYPERLINK("http://evil.example","x")`,
        `'+1@example.com`,
        `'-2+3`,
        'new',
        '',
        '',
      ]);
      expect(records[2].slice(2)).toEqual([
        `'@SUM(A1)`,
        `'\tTabbed`,
        `'\rCarriage`,
        'new',
        '',
        '',
      ]);
      expect(text).toContain(
        `"'=HYPERLINK(""http://evil.example"",""x"")",'+1@example.com,'-2+3,new,,\r\n`,
      );
      // No cell of the file starts with a trigger character.
      for (const record of records) {
        for (const cell of record) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
      }
    });

    it('applies from, to and q like the list', async () => {
      const res = await fetch(
        exportUrl(form, '?from=2025-01-02&to=2025-01-05&q=example.com'),
        { headers: { 'x-api-key': form.apiKey } },
      );
      expect(res.status).toBe(200);
      const records = parseCsv(await res.text());
      expect(records.slice(1).map((r) => r[0])).toEqual([
        rows[2].id,
        rows[1].id,
      ]);
    });

    it('writes only the header for a form without submissions', async () => {
      const empty = await createForm(t, owner.account.id);
      const res = await fetch(exportUrl(empty, '?format=csv'), {
        headers: { 'x-api-key': empty.apiKey },
      });
      expect(res.status).toBe(200);
      expect(await res.text()).toBe(
        'id,createdAt,name,email,message,status,assignee,labels\r\n',
      );
    });
  });

  it('uses every key seen, in first-seen order, for a form without fields', async () => {
    const form = await createForm(t, owner.account.id, {
      name: 'Free form',
      fields: [],
    });
    const rows = await insertSubmissions(t, form.form.id, [
      { createdAt: at('2025-02-01T00:00:00Z'), data: { b: 'b1', a: 'a1' } },
      { createdAt: at('2025-02-02T00:00:00Z'), data: { c: 'c2', a: 'a2' } },
      { createdAt: at('2025-02-03T00:00:00Z'), data: { '=d': 'd3' } },
    ]);
    const res = await fetch(exportUrl(form), {
      headers: { 'x-api-key': form.apiKey },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="free-form-submissions-${today()}.csv"`,
    );
    expect(parseCsv(await res.text())).toEqual([
      ['id', 'createdAt', 'b', 'a', 'c', "'=d", 'status', 'assignee', 'labels'],
      [rows[2].id, '2025-02-03T00:00:00.000Z', '', '', '', 'd3', 'new', '', ''],
      [
        rows[1].id,
        '2025-02-02T00:00:00.000Z',
        '',
        'a2',
        'c2',
        '',
        'new',
        '',
        '',
      ],
      [
        rows[0].id,
        '2025-02-01T00:00:00.000Z',
        'b1',
        'a1',
        '',
        '',
        'new',
        '',
        '',
      ],
    ]);
  });

  describe('NDJSON', () => {
    it('writes one Submission JSON object per line, newest first', async () => {
      const form = await createForm(t, owner.account.id, { name: 'Leads' });
      const rows = await insertSubmissions(t, form.form.id, [
        {
          createdAt: at('2025-03-01T00:00:00.001Z'),
          data: { name: 'A', message: 'two\nlines' },
        },
        {
          createdAt: at('2025-03-01T00:00:00.001Z'),
          data: { name: 'B "quoted"' },
          origin: null,
        },
        {
          createdAt: at('2025-03-02T00:00:00.000Z'),
          data: { name: 'C', age: 7, ok: true },
        },
      ]);
      const res = await fetch(exportUrl(form, '?format=ndjson'), {
        headers: { 'x-api-key': form.apiKey },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe(
        'application/x-ndjson; charset=utf-8',
      );
      expect(res.headers.get('content-disposition')).toBe(
        `attachment; filename="leads-submissions-${today()}.ndjson"`,
      );
      const text = await res.text();
      expect(text.endsWith('\n')).toBe(true);
      const lines = text.slice(0, -1).split('\n');
      expect(lines).toHaveLength(3);
      expect(lines.map((line) => JSON.parse(line))).toEqual(
        [...rows].sort(newestFirst).map(asApi),
      );
    });

    it('matches the single-submission endpoint for each line', async () => {
      const form = await createForm(t, owner.account.id);
      await insertSubmissions(t, form.form.id, [
        {
          createdAt: at('2025-03-05T00:00:00Z'),
          data: { name: 'Zoë', email: 'z@example.com' },
        },
      ]);
      const line = JSON.parse(
        (
          await (
            await fetch(exportUrl(form, '?format=ndjson'), {
              headers: { 'x-api-key': form.apiKey },
            })
          ).text()
        ).trim(),
      );
      const one = await request(
        `${t.url}/api/v1/forms/${form.form.id}/submissions/${line.id}`,
        { apiKey: form.apiKey },
      );
      expect(one.body).toEqual(line);
    });

    it('sends an empty body for a form without submissions', async () => {
      const form = await createForm(t, owner.account.id);
      const res = await fetch(exportUrl(form, '?format=ndjson'), {
        headers: { 'x-api-key': form.apiKey },
      });
      expect(res.status).toBe(200);
      expect(await res.text()).toBe('');
    });
  });

  it('reads several batches in keyset order without skipping or repeating rows at ties', async () => {
    const form = await createForm(t, owner.account.id, { name: 'Big' });
    // 4,500 rows with 7 per millisecond: batch boundaries (500 rows) fall inside ties.
    const rows = await insertSubmissions(
      t,
      form.form.id,
      Array.from({ length: 4500 }, (_, i) => ({
        createdAt: new Date(Date.UTC(2025, 4, 1) + Math.floor(i / 7)),
        data: { name: `n${i}`, email: `e${i}@example.com`, message: 'm' },
      })),
    );
    const expected = [...rows].sort(newestFirst).map((row) => row.id);
    const csv = parseCsv(
      await (
        await fetch(exportUrl(form), { headers: { 'x-api-key': form.apiKey } })
      ).text(),
    );
    expect(csv.slice(1).map((r) => r[0])).toEqual(expected);
    const ndjson = (
      await (
        await fetch(exportUrl(form, '?format=ndjson'), {
          headers: { 'x-api-key': form.apiKey },
        })
      ).text()
    )
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { id: string }).id);
    expect(ndjson).toEqual(expected);
  });

  it('exports every match of a rare search term, however far apart they are', async () => {
    const form = await createForm(t, owner.account.id, { name: 'Sparse' });
    const total = SEARCH_SCAN_ROWS * 2 + 10;
    const rows = await insertSubmissions(
      t,
      form.form.id,
      Array.from({ length: total }, (_, i) => ({
        createdAt: new Date(Date.UTC(2025, 9, 1) + i),
        data: {
          name: i % 9_000 === 0 ? 'Needle' : `Hay ${i}`,
          email: 'x@example.com',
        },
      })),
    );
    const expected = rows
      .filter((row) => row.data.name === 'Needle')
      .sort(newestFirst)
      .map((row) => row.id);
    expect(expected).toHaveLength(3);
    const res = await fetch(exportUrl(form, '?format=ndjson&q=NEEDLE'), {
      headers: { 'x-api-key': form.apiKey },
    });
    expect(res.status).toBe(200);
    const ids = (await res.text())
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { id: string }).id);
    expect(ids).toEqual(expected);
  });

  it('stops cleanly when the client goes away mid-export', async () => {
    const form = await createForm(t, owner.account.id, { name: 'Abandoned' });
    await insertSubmissions(
      t,
      form.form.id,
      Array.from({ length: 6000 }, (_, i) => ({
        createdAt: new Date(Date.UTC(2025, 5, 1) + i),
        data: {
          name: `n${i}`,
          email: `e${i}@example.com`,
          message: 'x'.repeat(200),
        },
      })),
    );
    const controller = new AbortController();
    const res = await fetch(exportUrl(form), {
      headers: { 'x-api-key': form.apiKey },
      signal: controller.signal,
    });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(first.done).toBe(false);
    controller.abort();
    await reader.read().catch(() => undefined);

    // The server keeps serving, and logged no unexpected error for the abandoned export.
    const after = await request(
      `${t.url}/api/v1/forms/${form.form.id}/submissions?limit=1`,
      {
        apiKey: form.apiKey,
      },
    );
    expect(after.status).toBe(200);
    expect(t.logs.filter((line) => line.includes('Unhandled error'))).toEqual(
      [],
    );
  });

  it('rejects an unknown format with a 400', async () => {
    const form = await createForm(t, owner.account.id);
    const res = await request(exportUrl(form, '?format=xml'), {
      apiKey: form.apiKey,
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'Validation failed',
      errors: ['format must be one of the following values: csv, ndjson'],
    });
  });

  it('rejects bad dates before sending anything', async () => {
    const form = await createForm(t, owner.account.id);
    const res = await request(exportUrl(form, '?to=tomorrow'), {
      apiKey: form.apiKey,
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-disposition')).toBeNull();
    expect(res.body.error).toBe('Validation failed');
  });
});
