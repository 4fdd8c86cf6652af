// A form's submissions in the dashboard over plain HTTP, on SQLite and on MySQL/MariaDB:
// per-day counts by UTC day, search and whole-day date ranges, one submission's page,
// deleting one or a range (CSRF-checked, owner only), and the CSV for Excel.
import { AccountsService } from '../../../src/accounts/accounts.service.js';
import { Form } from '../../../src/forms/form.entity.js';
import { Submission } from '../../../src/submissions/submission.entity.js';
import { SubmissionStatsService } from '../../../src/submissions/queries/submission-stats.service.js';
import { createAccount } from '../../factories/accounts.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import { at, insertSubmissions } from '../../factories/submissions.js';
import {
  csrfOf,
  DashboardClient,
  textOf,
} from '../../support/dashboard-client.js';
import { request } from '../../support/http.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

const XSS = '<img src=x onerror="window.__xss=1">';
const ESCAPED_XSS = '&lt;img src=x onerror=&quot;window.__xss=1&quot;&gt;';
const DAY = 86_400_000;
const byText = (a: string, b: string) => a.localeCompare(b);

let counter = 0;
const freshEmail = () => `subs${++counter}-${Date.now()}@example.com`;

/** [day, count] of every bar in the activity chart. */
function chartBars(html: string): Array<[string, number]> {
  return [...html.matchAll(/data-day="([\d-]+)" data-count="(\d+)"/g)].map(
    (m) => [m[1], Number(m[2])],
  );
}

/** The names in the submissions table, top to bottom. */
function listedNames(html: string): string[] {
  const table = /<caption[^>]*>Submissions, newest first[\s\S]*?<\/table>/.exec(
    html,
  );
  if (!table) return [];
  return [
    ...table[0].matchAll(
      /<tr>\s*<td class="nowrap">[\s\S]*?<div class="cell-value">([^<]*)<\/div>/g,
    ),
  ].map((m) => m[1]);
}

describe('dashboard: submissions (e2e)', () => {
  let t: TestApp;
  let client: DashboardClient;
  let form: TestForm;
  let base: string;

  beforeAll(async () => {
    t = await createTestApp({ env: { TRUST_PROXY: '127.0.0.1' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  beforeEach(async () => {
    const email = freshEmail();
    client = new DashboardClient(t.url);
    client.headers['x-forwarded-for'] = `198.51.100.${counter % 250}`;
    expect((await client.signUp(email)).status).toBe(303);
    const owner = await t.app.get(AccountsService).findByEmail(email);
    form = await createForm(t, owner!.id);
    base = `/dashboard/forms/${form.form.id}`;
  });

  describe('activity', () => {
    it('counts submissions per UTC day over the last 30 days, today included', async () => {
      const now = new Date();
      const today = Date.UTC(
        now.getUTCFullYear(),
        now.getUTCMonth(),
        now.getUTCDate(),
      );
      const day = (n: number) =>
        new Date(today - n * DAY).toISOString().slice(0, 10);
      await insertSubmissions(t, form.form.id, [
        { createdAt: new Date(today) }, // first instant of today
        { createdAt: new Date(today - 1) }, // last instant of yesterday
        { createdAt: new Date(today - 1 - 2 * 60_000) },
        { createdAt: new Date(today - 29 * DAY) }, // first day shown
        { createdAt: new Date(today - 29 * DAY - 1) }, // a day too old
      ]);
      await t.dataSource
        .getRepository(Form)
        .update({ id: form.form.id }, { honeypotHits: 4 });

      const page = await client.get(base);
      expect(page.status).toBe(200);
      expect(chartBars(page.html)).toEqual([
        [day(29), 1],
        [day(1), 2],
        [day(0), 1],
      ]);
      const text = textOf(page.html);
      expect(text).toContain(
        'Last 30 days 4 All time 5 Spam stopped by the honeypot 4',
      );
      expect(page.html).toMatch(
        /<svg class="chart-svg"[^>]* role="img" aria-labelledby="chart-title chart-desc"/,
      );
      // The table behind the chart: 30 days, newest first, zeros included.
      const rows = [
        ...page.html.matchAll(
          /<tr><th scope="row"><time datetime="([\d-]+)">[^<]*<\/time><\/th><td class="num">(\d+)<\/td><\/tr>/g,
        ),
      ];
      expect(rows).toHaveLength(30);
      expect([rows[0][1], rows[0][2]]).toEqual([day(0), '1']);
      expect([rows[29][1], rows[29][2]]).toEqual([day(29), '1']);

      const service = t.app.get(SubmissionStatsService);
      const counts = await service.dailyCounts(form.form, 30, now);
      expect(counts).toHaveLength(30);
      expect(counts.reduce((sum, d) => sum + d.count, 0)).toBe(4);
    });
  });

  describe('search and date range', () => {
    beforeEach(async () => {
      await insertSubmissions(t, form.form.id, [
        { createdAt: at('2026-04-30T23:59:59.999Z'), data: { name: 'April' } },
        {
          createdAt: at('2026-05-01T00:00:00.000Z'),
          data: { name: 'May first' },
        },
        {
          createdAt: at('2026-05-31T23:59:59.999Z'),
          data: { name: 'May last' },
        },
        { createdAt: at('2026-06-01T00:00:00.000Z'), data: { name: 'June' } },
        {
          createdAt: at('2026-05-15T10:00:00.000Z'),
          data: { name: 'Ünïcode Ådа' },
        },
      ]);
    });

    it('includes both days of a range, to the last millisecond', async () => {
      const page = await client.get(`${base}?from=2026-05-01&to=2026-05-31`);
      expect(page.status).toBe(200);
      expect(listedNames(page.html)).toEqual([
        'May last',
        'Ünïcode Ådа',
        'May first',
      ]);
      expect(textOf(page.html)).toContain(
        'Showing new submissions received from 1 May 2026 to 31 May 2026, newest first. 3 submissions in all.',
      );
      expect(page.html).toContain('value="2026-05-01"');
    });

    it('searches values case-insensitively, beyond ASCII, and keeps the search in paging and export links', async () => {
      const page = await client.get(`${base}?q=%C3%BCn%C3%AFCODE`);
      expect(listedNames(page.html)).toEqual(['Ünïcode Ådа']);
      expect(page.html).toContain(
        `href="${base}/submissions.csv?status=new&amp;q=%C3%BCn%C3%AFCODE"`,
      );
      // No bulk delete by search: only by date.
      expect(page.html).not.toContain(`${base}/submissions/delete`);
      expect(textOf(page.html)).toContain(
        'Deleting in bulk goes by date: clear the search to delete a date range.',
      );
    });

    it('answers bad dates with a 400 page that says what is wrong, listing nothing', async () => {
      for (const query of [
        'from=2026-02-30',
        'from=2026-06-02&to=2026-06-01',
      ]) {
        const page = await client.get(`${base}?${query}`);
        expect(page.status).toBe(400);
        expect(page.headers.get('content-type')).toMatch(/^text\/html/);
        expect(page.html).toMatch(/role="alert"/);
        expect(page.html).toMatch(/From must be/);
        expect(listedNames(page.html)).toEqual([]);
      }
    });

    it('exports what the list shows, with a byte order mark when asked for Excel', async () => {
      const res = await fetch(
        `${t.url}${base}/submissions.csv?bom=true&from=2026-05-01&to=2026-05-31`,
        { headers: { cookie: client.cookieHeader() } },
      );
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(res.headers.get('content-disposition')).toMatch(
        /^attachment; filename="contact-submissions-\d{4}-\d{2}-\d{2}\.csv"$/,
      );
      const bytes = Buffer.from(await res.arrayBuffer());
      expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const lines = bytes.subarray(3).toString('utf8').trim().split('\r\n');
      expect(lines[0]).toBe(
        'id,createdAt,name,email,message,status,assignee,labels',
      );
      expect(lines.slice(1).map((line) => line.split(',')[2])).toEqual([
        'May last',
        'Ünïcode Ådа',
        'May first',
      ]);
      const plain = await fetch(`${t.url}${base}/submissions.csv`, {
        headers: { cookie: client.cookieHeader() },
      });
      const plainBytes = Buffer.from(await plain.arrayBuffer());
      expect(plainBytes.subarray(0, 3).toString('utf8')).toBe('id,');
      expect(plainBytes.toString('utf8').trim().split('\r\n')).toHaveLength(6);
    });
  });

  describe('one submission', () => {
    it('shows every field, the time, IP, user agent and origin, all escaped', async () => {
      const [row] = await insertSubmissions(t, form.form.id, [
        {
          createdAt: at('2026-05-01T12:34:56.789Z'),
          data: { name: XSS, extra: 'from an older field set' },
          ip: '2001:db8::7',
          userAgent: `Agent ${XSS}`,
          origin: 'https://www.example.com',
        },
      ]);
      const page = await client.get(`${base}/submissions/${row.id}`);
      expect(page.status).toBe(200);
      expect(page.headers.get('cache-control')).toBe('no-store');
      expect(page.html).not.toContain('<img src=x');
      expect(page.html).toContain(ESCAPED_XSS);
      const text = textOf(page.html);
      expect(text).toContain('Name name');
      expect(text).toContain('Email email Not filled in');
      expect(text).toContain(
        'extra not a current field from an older field set',
      );
      expect(text).toContain('1 May 2026, 12:34 UTC 2026-05-01T12:34:56.789Z');
      expect(text).toContain('IP address 2001:db8::7');
      expect(text).toContain(`User agent Agent ${ESCAPED_XSS}`);
      expect(text).toContain('Origin https://www.example.com');
      expect(text).toContain(`Submission ID ${row.id}`);
    });

    it("answers an unknown submission, or another owner's, with a 404 page", async () => {
      const [mine] = await insertSubmissions(t, form.form.id, [
        { createdAt: new Date(), data: { name: 'Mine' } },
      ]);
      const unknown = await client.get(
        `${base}/submissions/01JUNKNOWN0000000000000000`,
      );
      expect(unknown.status).toBe(404);
      expect(unknown.headers.get('content-type')).toMatch(/^text\/html/);
      expect(textOf(unknown.html)).toContain('Submission not found');

      const other = await createAccount(t, freshEmail());
      const theirs = await createForm(t, other.account.id, { name: 'Theirs' });
      const [secret] = await insertSubmissions(t, theirs.form.id, [
        { createdAt: new Date(), data: { name: 'Their secret' } },
      ]);
      for (const path of [
        `/dashboard/forms/${theirs.form.id}/submissions/${secret.id}`,
        `/dashboard/forms/${theirs.form.id}/submissions/${secret.id}/delete`,
        `/dashboard/forms/${theirs.form.id}/submissions/delete`,
        // The owner's own form id with a submission of another form.
        `${base}/submissions/${secret.id}`,
      ]) {
        const res = await client.get(path);
        expect(res.status, path).toBe(404);
        expect(res.html).not.toContain('Their secret');
      }
      const del = await client.post(
        `/dashboard/forms/${theirs.form.id}/submissions/${secret.id}/delete`,
        {},
        { from: `${base}/submissions/${mine.id}` },
      );
      expect(del.status).toBe(404);
      const still = await t.dataSource
        .getRepository(Submission)
        .countBy({ id: secret.id });
      expect(still).toBe(1);
    });

    it('deletes after the confirmation, and only with the CSRF token', async () => {
      const [row] = await insertSubmissions(t, form.form.id, [
        { createdAt: new Date(), data: { name: 'Doomed' } },
      ]);
      const confirm = await client.get(`${base}/submissions/${row.id}/delete`);
      expect(confirm.status).toBe(200);
      expect(textOf(confirm.html)).toContain('Delete this submission?');
      expect(confirm.html).toContain(
        `<form method="post" action="${base}/submissions/${row.id}/delete"`,
      );

      const forged = await client.post(
        `${base}/submissions/${row.id}/delete`,
        {},
        { csrf: null },
      );
      expect(forged.status).toBe(403);
      const repo = t.dataSource.getRepository(Submission);
      expect(await repo.countBy({ id: row.id })).toBe(1);

      const done = await client.post(
        `${base}/submissions/${row.id}/delete`,
        {},
        { csrf: csrfOf(confirm.html) },
      );
      expect(done.status).toBe(303);
      expect(done.location).toBe(`${base}?done=submission-deleted`);
      expect(await repo.countBy({ id: row.id })).toBe(0);
      const after = await client.get(done.location!);
      expect(textOf(after.html)).toContain('The submission was deleted.');

      const again = await client.post(
        `${base}/submissions/${row.id}/delete`,
        {},
        { csrf: csrfOf(confirm.html) },
      );
      expect(again.status).toBe(404);
    });
  });

  describe('deleting a range', () => {
    beforeEach(async () => {
      await insertSubmissions(t, form.form.id, [
        {
          createdAt: at('2026-04-30T23:59:59.999Z'),
          data: { name: 'Keep April' },
        },
        { createdAt: at('2026-05-01T00:00:00.000Z'), data: { name: 'Go 1' } },
        { createdAt: at('2026-05-02T08:00:00.000Z'), data: { name: 'Go 2' } },
        { createdAt: at('2026-05-02T23:59:59.999Z'), data: { name: 'Go 3' } },
        {
          createdAt: at('2026-05-03T00:00:00.000Z'),
          data: { name: 'Keep May 3' },
        },
      ]);
    });

    it('counts what the range holds, then deletes exactly that after confirmation', async () => {
      const confirm = await client.get(
        `${base}/submissions/delete?from=2026-05-01&to=2026-05-02`,
      );
      expect(confirm.status).toBe(200);
      expect(textOf(confirm.html)).toContain(
        'This permanently deletes the 3 submissions received from 1 May 2026 to 2 May 2026.',
      );
      expect(confirm.html).toContain('name="from" value="2026-05-01"');

      const forged = await client.post(
        `${base}/submissions/delete`,
        { from: '2026-05-01', to: '2026-05-02' },
        { csrf: null },
      );
      expect(forged.status).toBe(403);
      const repo = t.dataSource.getRepository(Submission);
      expect(await repo.countBy({ formId: form.form.id })).toBe(5);

      const done = await client.post(
        `${base}/submissions/delete`,
        { from: '2026-05-01', to: '2026-05-02' },
        { csrf: csrfOf(confirm.html) },
      );
      expect(done.status).toBe(303);
      expect(done.location).toBe(
        `${base}?done=bulk-deleted&deleted=3&from=2026-05-01&to=2026-05-02`,
      );
      const left = await repo.findBy({ formId: form.form.id });
      expect(
        left.map((s) => String(s.data.name as string)).sort(byText),
      ).toEqual(['Keep April', 'Keep May 3']);
      const after = await client.get(done.location!);
      expect(textOf(after.html)).toContain('Deleted 3 submissions.');
    });

    it('says when a range holds nothing, and refuses bad dates without deleting', async () => {
      const empty = await client.get(
        `${base}/submissions/delete?from=2027-01-01&to=2027-01-31`,
      );
      expect(empty.status).toBe(200);
      expect(textOf(empty.html)).toContain('Nothing to delete');
      expect(empty.html).not.toContain(
        'type="submit" class="button button-danger"',
      );

      const bad = await client.post(
        `${base}/submissions/delete`,
        { from: '2026-05-09', to: '2026-05-01' },
        { from: `${base}/submissions/delete` },
      );
      expect(bad.status).toBe(400);
      expect(bad.html).toContain('From must be on or before To');
      expect(
        await t.dataSource
          .getRepository(Submission)
          .countBy({ formId: form.form.id }),
      ).toBe(5);
    });

    it('offers to delete everything when no range is chosen', async () => {
      const page = await client.get(base);
      expect(page.html).toContain(
        `href="${base}/submissions/delete">Delete all submissions…</a>`,
      );
      const confirm = await client.get(`${base}/submissions/delete`);
      expect(textOf(confirm.html)).toContain(
        'This permanently deletes all 5 submissions of this form.',
      );
    });
  });

  it('lets the API export carry a byte order mark too, and validates the option', async () => {
    await insertSubmissions(t, form.form.id, [
      { createdAt: new Date(), data: { name: 'Zoë' } },
    ]);
    const url = `${t.url}/api/v1/forms/${form.form.id}/submissions/export`;
    const withBom = await fetch(`${url}?bom=true`, {
      headers: { 'x-api-key': form.apiKey },
    });
    expect(withBom.status).toBe(200);
    const bytes = Buffer.from(await withBom.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const bad = await request(`${url}?bom=maybe`, { apiKey: form.apiKey });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      error: 'Validation failed',
      errors: ['bom must be a boolean value'],
    });
  });
});
