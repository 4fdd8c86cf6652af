// The account page's Personal data section: export a person's submissions as NDJSON, and
// erase them after a page that says how many will go.
import { createAccount } from '../../factories/accounts.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import { insertSubmissions } from '../../factories/submissions.js';
import { createDashboardSession } from '../../factories/sessions.js';
import {
  csrfOf,
  DashboardClient,
  textOf,
} from '../../support/dashboard-client.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

const ADDRESS = 'grace.hopper@example.com';

describe('dashboard: personal data export and erasure (e2e)', () => {
  let t: TestApp;
  let client: DashboardClient;
  let form: TestForm;
  let holding: string[];
  let other: string;

  beforeAll(async () => {
    t = await createTestApp();
    const accountId = (await createAccount(t)).account.id;
    client = new DashboardClient(t.url);
    const { token } = await createDashboardSession(t, accountId);
    client.cookies.set('dashboard_session', token);
    form = await createForm(t, accountId);
    const rows = await insertSubmissions(t, form.form.id, [
      {
        createdAt: new Date(Date.now() - 3000),
        data: { name: 'Grace', email: 'Grace.Hopper@Example.com' },
      },
      {
        createdAt: new Date(Date.now() - 2000),
        data: { name: 'B', email: 'b@example.com', message: `cc ${ADDRESS}` },
      },
      {
        createdAt: new Date(Date.now() - 1000),
        data: { name: 'C', email: 'c@example.com' },
      },
    ]);
    holding = [rows[0].id, rows[1].id];
    other = rows[2].id;
  });
  afterAll(async () => {
    await t?.close();
  });

  const stored = async () =>
    (
      (await t.dataSource.query(
        'SELECT id FROM submission WHERE formId = ? ORDER BY id',
        [form.form.id],
      )) as Array<{ id: string }>
    ).map((row) => row.id);

  it('offers export and erasure on the account page', async () => {
    const page = await client.get('/dashboard/account');
    expect(page.status).toBe(200);
    const text = textOf(page.html);
    expect(text).toContain('Personal data');
    expect(text).toContain('Export their data');
    expect(text).toContain('Erase their data…');
  });

  it('exports the submissions holding the address as an NDJSON download', async () => {
    const page = await client.post(
      '/dashboard/account/erasure/export',
      { erasureEmail: ADDRESS.toUpperCase() },
      { from: '/dashboard/account' },
    );
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe(
      'application/x-ndjson; charset=utf-8',
    );
    expect(page.headers.get('content-disposition')).toBe(
      'attachment; filename="data-subject-export.ndjson"',
    );
    const ids = page.html
      .trimEnd()
      .split('\n')
      .map((line) => (JSON.parse(line) as { id: string }).id);
    expect(ids).toEqual(holding);
  });

  it('refuses something that is not an address beside the field, with a 400 page', async () => {
    const page = await client.post(
      '/dashboard/account/erasure/preview',
      { erasureEmail: 'grace' },
      { from: '/dashboard/account' },
    );
    expect(page.status).toBe(400);
    expect(textOf(page.html)).toContain(
      'Enter the email address of the person the request is from',
    );
    expect(await stored()).toHaveLength(3);
  });

  it('says how many will go, and erases them only once confirmed', async () => {
    const preview = await client.post(
      '/dashboard/account/erasure/preview',
      { erasureEmail: ADDRESS },
      { from: '/dashboard/account' },
    );
    expect(preview.status).toBe(200);
    expect(textOf(preview.html)).toContain(
      `This permanently deletes 2 submissions in 1 form that hold ${ADDRESS}`,
    );
    expect(await stored()).toHaveLength(3);

    const done = await client.post(
      '/dashboard/account/erasure',
      { erasureEmail: ADDRESS },
      { csrf: csrfOf(preview.html) },
    );
    expect(done.status).toBe(303);
    expect(done.location).toBe(
      '/dashboard/account?done=erased&deleted=2&forms=1',
    );
    expect(await stored()).toEqual([other]);
    const account = await client.get(done.location!);
    expect(textOf(account.html)).toContain(
      'Erased 2 submissions from 1 form, with their notifications.',
    );
    expect(t.logs.filter((line) => line.includes('hopper'))).toEqual([]);
  });

  it('refuses an erasure post without the CSRF token, erasing nothing', async () => {
    await insertSubmissions(t, form.form.id, [
      { createdAt: new Date(), data: { name: 'G', email: ADDRESS } },
    ]);
    const page = await client.post(
      '/dashboard/account/erasure',
      { erasureEmail: ADDRESS },
      { csrf: null },
    );
    expect(page.status).toBe(403);
    expect(await stored()).toHaveLength(2);
  });
});
