// Long reads never hold the event loop: while several exports stream a large form, or
// several clients page through a search that examines its whole budget, other requests
// (a health check, a submission) are still answered promptly. On SQLite every query runs
// on the event loop; before exports and searches took turns, one 300k-row export held
// it for seconds and a burst of searches for most of a second.
import { SEARCH_SCAN_ROWS } from '../../../src/submissions/submissions.service.js';
import { seedSubmissions } from '../../../tools/submissions/seed-submissions.js';
import { Submission } from '../../../src/submissions/submission.entity.js';
import { createAccount } from '../../factories/accounts.js';
import { createForm } from '../../factories/forms.js';
import { request, type HttpResponse } from '../../support/http.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

const ROWS = 30_000;
/** Concurrent exports, then concurrent searching clients. */
const READERS = 4;
const SEARCHERS = 10;
/**
 * Longest a health check may wait. Before the fix it waited 0.9–1.6 s here (an export
 * of these rows held the loop for half a second at a time); now one turn (a batch, a
 * search chunk) takes a few milliseconds, and the rest of this bound is headroom for a
 * busy machine: the test process is client and server at once.
 */
const PROMPT_MS = 500;

/** Sequential requests to `url` until `done` settles; the slowest answer's time. */
async function slowestWhile(
  url: string,
  done: Promise<unknown>,
): Promise<{ slowestMs: number; answered: number }> {
  let running = true;
  void done.finally(() => {
    running = false;
  });
  let slowestMs = 0;
  let answered = 0;
  while (running) {
    const started = performance.now();
    const res = await request(url);
    expect(res.status).toBe(200);
    slowestMs = Math.max(slowestMs, performance.now() - started);
    answered++;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return { slowestMs, answered };
}

describe('long reads leave the server responsive (e2e)', () => {
  let t: TestApp;
  let apiKey: string;
  let formId: string;

  beforeAll(async () => {
    t = await createTestApp();
    const { account } = await createAccount(t);
    const created = await createForm(t, account.id);
    formId = created.form.id;
    apiKey = created.apiKey;
    await seedSubmissions(t.dataSource, { formId, count: ROWS, seed: 3 });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('answers health checks promptly while exports of every row stream', async () => {
    const base = `${t.url}/api/v1/forms/${formId}/submissions/export`;
    const exports = Promise.all(
      Array.from({ length: READERS }, async (_, i) => {
        const format = i % 2 === 0 ? 'csv' : 'ndjson';
        const res = await fetch(`${base}?format=${format}`, {
          headers: { 'x-api-key': apiKey },
        });
        expect(res.status).toBe(200);
        // Counted chunk by chunk, so this process (which is also the server) never
        // decodes a whole file in one go.
        let lines = 0;
        for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
          const bytes = Buffer.from(
            chunk.buffer,
            chunk.byteOffset,
            chunk.length,
          );
          for (
            let at = bytes.indexOf(10);
            at !== -1;
            at = bytes.indexOf(10, at + 1)
          ) {
            lines++;
          }
        }
        return format === 'csv' ? lines - 1 : lines;
      }),
    );
    const { slowestMs, answered } = await slowestWhile(
      `${t.url}/health/live`,
      exports,
    );

    expect(await exports).toEqual(Array<number>(READERS).fill(ROWS));
    expect(answered).toBeGreaterThan(3);
    expect(slowestMs).toBeLessThan(PROMPT_MS);
  });

  it('answers health checks promptly while searches examine their whole budget', async () => {
    const url = `${t.url}/api/v1/forms/${formId}/submissions?limit=25&q=no-such-text`;
    const searches = Promise.all(
      Array.from({ length: SEARCHERS }, async () => {
        let cursor: string | null = null;
        let pages = 0;
        do {
          const res: HttpResponse<{
            data: unknown[];
            nextCursor: string | null;
          }> = await request(cursor ? `${url}&cursor=${cursor}` : url, {
            apiKey,
          });
          expect(res.status).toBe(200);
          expect(res.body.data).toEqual([]);
          cursor = res.body.nextCursor;
          pages++;
        } while (cursor);
        return pages;
      }),
    );
    const { slowestMs } = await slowestWhile(`${t.url}/health/live`, searches);

    // Every page examines its budget of rows; a last, empty page finds the end.
    expect(await searches).toEqual(
      Array<number>(SEARCHERS).fill(Math.floor(ROWS / SEARCH_SCAN_ROWS) + 1),
    );
    expect(slowestMs).toBeLessThan(PROMPT_MS);
    expect(
      await t.dataSource.getRepository(Submission).countBy({ formId }),
    ).toBe(ROWS);
  });
});
