// Full-text search (DESIGN 20): the worker keeps the index a few seconds behind, a row sent a
// moment ago is found within 10 s, and a rare word among many rows answers in one request.
import { FormCounterRepository } from '../../../src/submissions/counters/form-counter.repository.js';
import { SearchIndexer } from '../../../src/submissions/search/search-indexer.js';
import { createAccount } from '../../factories/accounts.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import { insertSubmissions } from '../../factories/submissions.js';
import { request } from '../../support/http.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

describe('full-text search of submissions (e2e)', () => {
  let t: TestApp;
  let form: TestForm;

  beforeAll(async () => {
    t = await createTestApp({
      env: { SUBMIT_RATE_LIMIT: '1000', SEARCH_INDEX_INTERVAL_SECONDS: '1' },
    });
    const owner = await createAccount(t);
    form = await createForm(t, owner.account.id);
  });
  afterAll(async () => {
    await t?.close();
  });

  const search = (q: string, extra = '') =>
    request(
      `${t.url}/api/v1/forms/${form.form.id}/submissions?q=${encodeURIComponent(q)}${extra}`,
      { apiKey: form.apiKey },
    );

  it('finds a rare word among many rows in one request, with its page full and no cursor', async () => {
    const start = Date.UTC(2025, 0, 1);
    const rows = Array.from({ length: 12_000 }, (_, i) => ({
      createdAt: new Date(start + i * 1000),
      data: {
        name: `Person ${i}`,
        email: `p${i}@example.com`,
        message:
          i % 4000 === 7
            ? `Please call about the zanzibar offer`
            : 'hello there',
      },
    }));
    const stored = await insertSubmissions(t, form.form.id, rows);
    // The indexer's passes (every second here) until it has caught up.
    const indexer = t.app.get(SearchIndexer);
    while ((await indexer.pass()) > 0);
    const [{ n }] = await t.dataSource.query(
      t.dataSource.options.type === 'better-sqlite3'
        ? 'SELECT COUNT(*) AS n FROM "submission_search"'
        : 'SELECT COUNT(*) AS n FROM `submission_search`',
    );
    expect(Number(n)).toBe(12_000);
    const res = await search('Zanzibar');
    expect(res.status).toBe(200);
    const expected = stored
      .filter((row) => JSON.stringify(row.data).includes('zanzibar'))
      .map((row) => row.id)
      .reverse();
    expect(expected).toHaveLength(3);
    expect(res.body.data.map((s: { id: string }) => s.id)).toEqual(expected);
    // The windowed scan would have stopped after 10,000 rows with a cursor to follow.
    expect(res.body.nextCursor).toBeNull();
    // A prefix of the word, with another condition of the list.
    const prefix = await search('zanzi', '&limit=2');
    expect(prefix.body.data.map((s: { id: string }) => s.id)).toEqual(
      expected.slice(0, 2),
    );
    expect(prefix.body.nextCursor).not.toBeNull();
    const next = await search(
      'zanzi',
      `&limit=2&cursor=${encodeURIComponent(prefix.body.nextCursor as string)}`,
    );
    expect(next.body.data.map((s: { id: string }) => s.id)).toEqual(
      expected.slice(2),
    );
    expect(
      (await t.app.get(FormCounterRepository).countsOf(form.form.id)).total,
    ).toBe(12_000);
  });

  it('finds a row sent a moment ago within 10 s, and forgets a deleted one', async () => {
    // The commit queue tells the indexer of each committed submission (it steps aside for
    // a burst of them).
    const indexer = t.app.get(SearchIndexer);
    const committedBefore = indexer.submissions;
    const sent = await request(`${t.url}/api/submit/${form.form.id}`, {
      json: { name: 'Fresh', email: 'fresh@example.com', message: 'quokkas' },
    });
    expect(sent.status).toBe(200);
    expect(indexer.submissions).toBe(committedBefore + 1);
    const started = Date.now();
    let ids: string[] = [];
    while (Date.now() - started < 10_000) {
      const res = await search('quokkas');
      expect(res.status).toBe(200);
      ids = res.body.data.map((s: { id: string }) => s.id);
      if (ids.length === 1) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(ids).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(10_000);
    // Once indexed (after the grace), it is still found through the index.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    await t.app.get(SearchIndexer).pass();
    expect((await search('quokkas')).body.data).toHaveLength(1);
    const removed = await request(
      `${t.url}/api/v1/forms/${form.form.id}/submissions/${ids[0]}`,
      { method: 'DELETE', apiKey: form.apiKey },
    );
    expect(removed.status).toBe(204);
    expect((await search('quokkas')).body.data).toEqual([]);
    const left = await t.dataSource.query(
      t.dataSource.options.type === 'better-sqlite3'
        ? 'SELECT COUNT(*) AS n FROM "submission_search" WHERE "submissionId" = ?'
        : 'SELECT COUNT(*) AS n FROM `submission_search` WHERE `submissionId` = ?',
      [ids[0]],
    );
    expect(Number(left[0].n)).toBe(0);
  });
});
