// The count on top of a search in the dashboard (DESIGN 20, docs/inbox.md): the matches in
// all, not those of the page — from the full-text index plus the rows it has not reached,
// with the tab and other filters applied, "10,000+" beyond the cap — and, for a search the
// index cannot answer, among the newest 10,000 rows. One request each.
import { SearchIndexer } from '../../../src/submissions/search/search-indexer.js';
import { createAccount } from '../../factories/accounts.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import { createDashboardSession } from '../../factories/sessions.js';
import { insertSubmissions } from '../../factories/submissions.js';
import { DashboardClient, textOf } from '../../support/dashboard-client.js';
import { request } from '../../support/http.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

describe('dashboard: how many submissions a search matches (e2e)', () => {
  let t: TestApp;
  let leads: TestForm;
  let big: TestForm;
  let client: DashboardClient;

  /** The count line's number, and the rows the page lists. */
  async function search(form: TestForm, query: string) {
    const page = await client.get(`/dashboard/forms/${form.form.id}?${query}`);
    expect(page.status).toBe(200);
    return {
      matches: /data-testid="match-count">([^<]+)</.exec(page.html)?.[1],
      rows: page.html.match(/data-submission="/g)?.length ?? 0,
      text: textOf(page.html),
      html: page.html,
    };
  }

  beforeAll(async () => {
    // The index is filled by the passes below only, so what it holds is known.
    t = await createTestApp({ env: { SEARCH_INDEX_INTERVAL_SECONDS: '0' } });
    const owner = await createAccount(t);
    leads = await createForm(t, owner.account.id, { name: 'Leads' });
    big = await createForm(t, owner.account.id, { name: 'Big' });
    const start = Date.UTC(2025, 0, 1);
    // 80 leads, 60 of them about quokkas; 30 of those then closed.
    const rows = await insertSubmissions(
      t,
      leads.form.id,
      Array.from({ length: 80 }, (_, i) => ({
        createdAt: new Date(start + i * 1000),
        data: {
          name: `Lead ${i}`,
          message: i % 4 === 3 ? 'plain request' : `About quokka number ${i}`,
        },
      })),
    );
    const quokkas = rows.filter((row) =>
      JSON.stringify(row.data).includes('quokka'),
    );
    expect(quokkas).toHaveLength(60);
    const closed = await request(
      `${t.url}/api/v1/forms/${leads.form.id}/submissions/bulk`,
      {
        apiKey: leads.apiKey,
        json: {
          ids: quokkas.slice(0, 30).map((row) => row.id),
          set: { status: 'closed' },
        },
      },
    );
    expect(closed.status).toBe(200);
    // After the leads' rows: the indexer walks submissions in id order.
    await insertSubmissions(
      t,
      big.form.id,
      Array.from({ length: 10_050 }, (_, i) => ({
        createdAt: new Date(start + 3_600_000 + i * 1000),
        data: { name: `Visitor ${i}`, message: 'A zebra crossing' },
      })),
    );
    const indexer = t.app.get(SearchIndexer);
    while ((await indexer.pass()) > 0);
    const { token } = await createDashboardSession(
      t,
      owner.user.id,
      owner.account.id,
    );
    client = new DashboardClient(t.url);
    client.cookies.set('dashboard_session', token);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('says how many match in all, above a page that shows 25 of them', async () => {
    const all = await search(leads, 'status=all&q=quokka');
    expect(all.matches).toBe('60 submissions match');
    expect(all.rows).toBe(25);
    expect(all.text).toContain('Showing submissions containing “quokka”');
    // The tab narrows the count as it narrows the list.
    expect((await search(leads, 'status=new&q=quokka')).matches).toBe(
      '30 submissions match',
    );
    expect((await search(leads, 'status=closed&q=quokka')).matches).toBe(
      '30 submissions match',
    );
    expect((await search(leads, 'status=open&q=quokka')).matches).toBe(
      undefined,
    );
    // The next page keeps the count of them all.
    const older = /href="[^"]*[?&](cursor=[^"&#]+)/.exec(all.html)?.[1];
    expect(older).toBeDefined();
    const next = await search(leads, `status=all&q=quokka&${older}`);
    expect(next.matches).toBe('60 submissions match');
    expect(next.rows).toBe(25);
    // A page that holds every match is its own count.
    expect((await search(leads, 'status=all&q=plain')).matches).toBe(
      '20 submissions match',
    );
    expect(
      (await search(leads, 'status=all&q=quokka%20number%2042')).matches,
    ).toBe('1 submission matches');
  });

  it('counts a row the index has not reached yet', async () => {
    const sent = await request(`${t.url}/api/submit/${leads.form.id}`, {
      json: {
        name: 'Fresh',
        email: 'fresh@example.org',
        message: 'One more quokka',
      },
    });
    expect(sent.status).toBe(200);
    expect((await search(leads, 'status=all&q=quokka')).matches).toBe(
      '61 submissions match',
    );
  });

  it('counts a search the index cannot answer among the newest rows', async () => {
    // "uo" is too short for the index: the newest 10,000 rows are read (the form has 81).
    expect((await search(leads, 'status=all&q=uo')).matches).toBe(
      '61 submissions match',
    );
  });

  it('stops at 10,000, from the index and from the scan alike', async () => {
    const indexed = await search(big, 'status=all&q=zebra');
    expect(indexed.matches).toBe('10,000+ submissions match');
    expect(indexed.rows).toBe(25);
    const scanned = await search(big, 'status=all&q=ze');
    expect(scanned.matches).toBe('10,000+ submissions match');
    // Another form's matches are never counted.
    expect((await search(leads, 'status=all&q=zebra')).matches).toBe(undefined);
  });
});
