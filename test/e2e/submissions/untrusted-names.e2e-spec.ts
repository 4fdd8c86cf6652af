// Lookups by a name that came from a request or from submitted data — a `?done=` notice,
// a submission key such as `constructor` or `toString`, a CSV column — only ever find
// the table's own entries, never Object.prototype's built-ins.
import { AccountsService } from '../../../src/accounts/accounts.service.js';
import { createForm } from '../../factories/forms.js';
import { insertSubmissions } from '../../factories/submissions.js';
import { parseCsv } from '../../support/csv.js';
import { DashboardClient, textOf } from '../../support/dashboard-client.js';
import { request } from '../../support/http.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

const BUILT_INS = ['constructor', 'toString', '__proto__', 'hasOwnProperty'];

describe('lookups by untrusted names (e2e)', () => {
  let t: TestApp;
  let client: DashboardClient;
  let accountId: string;

  beforeAll(async () => {
    t = await createTestApp({ env: { TRUST_PROXY: '127.0.0.1' } });
    client = new DashboardClient(t.url);
    client.headers['x-forwarded-for'] = '203.0.113.90';
    const email = `names-${Date.now()}@example.com`;
    expect((await client.signUp(email)).status).toBe(303);
    accountId = (await t.app.get(AccountsService).findByEmail(email))!.id;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('shows no notice for ?done= naming a built-in, on every dashboard page', async () => {
    const { form } = await createForm(t, accountId);
    const pages = [
      '/dashboard/forms',
      `/dashboard/forms/${form.id}`,
      `/dashboard/forms/${form.id}/settings`,
      '/dashboard/account',
    ];
    for (const page of pages) {
      for (const done of BUILT_INS) {
        const res = await client.get(`${page}?done=${done}`);
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toMatch(/^text\/html/);
        expect(res.html).not.toContain('class="notice"');
        expect(res.html).not.toMatch(/native code|function \w*\(/);
      }
    }
    const login = await new DashboardClient(t.url).get(
      '/dashboard/login?done=constructor',
    );
    expect(login.status).toBe(200);
    expect(login.html).not.toContain('class="notice"');
    // A real notice still shows.
    const saved = await client.get(
      `/dashboard/forms/${form.id}/settings?done=saved`,
    );
    expect(saved.html).toContain('class="notice"');
  });

  it('shows submission keys named like built-ins as plain columns, empty where absent', async () => {
    const { form, apiKey } = await createForm(t, accountId, {
      name: 'Any keys',
      fields: [],
    });
    const rows = await insertSubmissions(t, form.id, [
      {
        createdAt: new Date('2026-01-01T10:00:00Z'),
        data: { constructor: 'built by Ada', toString: 'said hi' },
      },
      { createdAt: new Date('2026-01-02T10:00:00Z'), data: { name: 'Grace' } },
    ]);

    const page = await client.get(`/dashboard/forms/${form.id}`);
    expect(page.status).toBe(200);
    const text = textOf(page.html);
    expect(text).toContain('built by Ada');
    expect(text).toContain('said hi');
    expect(page.html).not.toMatch(/native code|function \w*\(|undefined/);
    // Grace's row has no constructor/toString cells of its own: they are empty.
    expect(page.html.match(/class="cell-empty"/g)).toHaveLength(3);

    const csv = await fetch(
      `${t.url}/api/v1/forms/${form.id}/submissions/export?format=csv`,
      { headers: { 'x-api-key': apiKey } },
    );
    expect(csv.status).toBe(200);
    const records = parseCsv(await csv.text());
    expect(records[0]).toEqual([
      'id',
      'createdAt',
      'constructor',
      'toString',
      'name',
      'status',
      'assignee',
      'labels',
    ]);
    expect(records.slice(1)).toEqual([
      [rows[1].id, '2026-01-02T10:00:00.000Z', '', '', 'Grace', 'new', '', ''],
      [
        rows[0].id,
        '2026-01-01T10:00:00.000Z',
        'built by Ada',
        'said hi',
        '',
        'new',
        '',
        '',
      ],
    ]);

    const api = await request(`${t.url}/api/v1/forms/${form.id}/submissions`, {
      apiKey,
    });
    expect(api.status).toBe(200);
    const expected: unknown[] = [
      { name: 'Grace' },
      JSON.parse('{"constructor":"built by Ada","toString":"said hi"}'),
    ];
    expect(api.body.data.map((s: { data: unknown }) => s.data)).toEqual(
      expected,
    );
  });
});
