// The dashboard's side of key lifecycle: Regenerate and "Rotate with 24 h overlap" on a
// form, and read-only or expiring account keys on the account page.
import { createAccount } from '../../factories/accounts.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import { createDashboardSession } from '../../factories/sessions.js';
import { DashboardClient, textOf } from '../../support/dashboard-client.js';
import { sha256 } from '../../support/forms-api.js';
import { request } from '../../support/http.js';
import { storedTime } from '../../support/stored-rows.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

const DAY_MS = 86_400_000;

describe('dashboard: key rotation and account keys (e2e)', () => {
  let t: TestApp;
  let client: DashboardClient;
  let accountId: string;

  beforeAll(async () => {
    t = await createTestApp();
    accountId = (await createAccount(t)).account.id;
    client = new DashboardClient(t.url);
    const { token } = await createDashboardSession(t, accountId);
    client.cookies.set('dashboard_session', token);
  });
  afterAll(async () => {
    await t?.close();
  });

  const readForm = (form: TestForm, apiKey: string) =>
    request(`${t.url}/api/v1/forms/${form.form.id}`, { apiKey });

  it('offers Regenerate and Rotate with 24 h overlap; rotating keeps the old key for 24 hours', async () => {
    const form = await createForm(t, accountId);
    const confirm = await client.get(
      `/dashboard/forms/${form.form.id}/regenerate-key`,
    );
    expect(confirm.status).toBe(200);
    expect(textOf(confirm.html)).toContain('Regenerate key now');
    expect(textOf(confirm.html)).toContain('Rotate with 24 h overlap');

    const before = Date.now();
    const rotated = await client.post(
      `/dashboard/forms/${form.form.id}/regenerate-key`,
      { overlap: '24h' },
    );
    expect(rotated.status).toBe(303);
    expect(rotated.location).toBe(
      `/dashboard/forms/${form.form.id}/setup?done=key-rotated`,
    );
    const [row] = await t.dataSource.query(
      'SELECT apiKeyHash, previousApiKeyHash, previousApiKeyExpiresAt FROM form WHERE id = ?',
      [form.form.id],
    );
    expect(row.previousApiKeyHash).toBe(sha256(form.apiKey));
    const expiry = storedTime(row.previousApiKeyExpiresAt)!.getTime();
    expect(expiry).toBeGreaterThanOrEqual(before + DAY_MS - 1);
    expect(expiry).toBeLessThanOrEqual(Date.now() + DAY_MS);

    const page = await client.get(rotated.location!);
    const text = textOf(page.html);
    expect(text).toContain('The old key keeps working for 24 hours');
    expect(text).toContain(
      `The previous key ${form.apiKey.slice(0, 12)}… is still accepted until`,
    );
    const newKey = /id="api-key"[^>]*value="(fgk_[^"]+)"/.exec(page.html)?.[1];
    expect(newKey).toBeDefined();
    expect(sha256(newKey!)).toBe(row.apiKeyHash);
    expect((await readForm(form, form.apiKey)).status).toBe(200);
    expect((await readForm(form, newKey!)).status).toBe(200);

    // Regenerate: the key it replaces, and the one still in its overlap, stop at once.
    const regenerated = await client.post(
      `/dashboard/forms/${form.form.id}/regenerate-key`,
      {},
      { from: `/dashboard/forms/${form.form.id}/regenerate-key` },
    );
    expect(regenerated.location).toBe(
      `/dashboard/forms/${form.form.id}/setup?done=key-regenerated`,
    );
    expect((await readForm(form, form.apiKey)).status).toBe(403);
    expect((await readForm(form, newKey!)).status).toBe(403);
  });

  it('creates a read-only account key that expires, shown once, and lists it as such', async () => {
    const page = await client.post(
      '/dashboard/account/keys',
      {
        keyName: 'Reports',
        readOnly: 'on',
        expiresIn: '30',
      },
      { from: '/dashboard/account' },
    );
    expect(page.status).toBe(201);
    const apiKey = /value="(fga_[^"]+)"/.exec(page.html)?.[1];
    expect(apiKey).toBeDefined();
    expect(textOf(page.html)).toContain(
      'reaches every form of your account (read-only)',
    );

    const [row] = await t.dataSource.query(
      'SELECT readOnly, expiresAt FROM account_api_key WHERE keyHash = ?',
      [sha256(apiKey!)],
    );
    expect(Boolean(Number(row.readOnly))).toBe(true);
    const expiry = storedTime(row.expiresAt)!.getTime();
    expect(Math.abs(expiry - (Date.now() + 30 * DAY_MS))).toBeLessThan(60_000);

    const read = await request(`${t.url}/api/v1/forms`, { apiKey });
    expect(read.status).toBe(200);
    const write = await request(`${t.url}/api/v1/forms`, {
      apiKey,
      json: { name: 'Nope' },
    });
    expect(write.status).toBe(403);

    const account = textOf((await client.get('/dashboard/account')).html);
    expect(account).toMatch(/Reports fga_\S+… Read-only/);
    expect(account).not.toContain(apiKey!);
  });

  it('refuses an expiry that is not one of the choices with a 400 page, creating nothing', async () => {
    const before = await t.dataSource.query(
      'SELECT COUNT(*) AS n FROM account_api_key WHERE accountId = ?',
      [accountId],
    );
    const page = await client.post(
      '/dashboard/account/keys',
      {
        keyName: 'Odd',
        expiresIn: '9999',
      },
      { from: '/dashboard/account' },
    );
    expect(page.status).toBe(400);
    expect(textOf(page.html)).toContain('Choose when the key expires');
    const after = await t.dataSource.query(
      'SELECT COUNT(*) AS n FROM account_api_key WHERE accountId = ?',
      [accountId],
    );
    expect(Number(after[0].n)).toBe(Number(before[0].n));
  });
});
