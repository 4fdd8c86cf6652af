// During a rotation's grace the previous form key may only read the form and read and work
// its submissions: a leaked key the owner is retiring cannot rotate the key again (which
// would lock the owner's new key out), delete or change the form, nor touch its webhooks,
// recipients or domains. The owner's new key keeps working throughout.
import { createAccount, type TestAccount } from '../../factories/accounts.js';
import { createForm } from '../../factories/forms.js';
import { insertSubmissions } from '../../factories/submissions.js';
import { request } from '../../support/http.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

describe('the previous form key during a rotation grace (e2e)', () => {
  let t: TestApp;
  let owner: TestAccount;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await createAccount(t);
  });
  afterAll(async () => {
    await t.close();
  });

  async function rotated() {
    const { form, apiKey: oldKey } = await createForm(t, owner.account.id, {
      name: 'Leads',
    });
    const res = await request(`${t.url}/api/v1/forms/${form.id}/api-key`, {
      method: 'POST',
      apiKey: oldKey,
      json: { graceSeconds: 3600 },
    });
    expect(res.status).toBe(200);
    return { form, oldKey, newKey: res.body.apiKey as string };
  }

  it('cannot rotate, delete or change the form, its webhooks or its domains (403), and nothing changes', async () => {
    const { form, oldKey, newKey } = await rotated();
    const base = `${t.url}/api/v1/forms/${form.id}`;
    const attempts: Array<[string, string, unknown, string]> = [
      ['POST', '/api-key', { graceSeconds: 0 }, 'This key cannot manage keys'],
      ['DELETE', '', undefined, 'This key cannot delete forms'],
      ['PATCH', '', { name: 'Taken' }, 'This key cannot change forms'],
      [
        'PUT',
        '',
        { name: 'Taken', fields: [{ id: 'email', type: 'email' }] },
        'This key cannot change forms',
      ],
      [
        'POST',
        '/webhooks',
        { url: 'https://attacker.example/hook' },
        'This key cannot manage notifications',
      ],
      [
        'POST',
        '/domains',
        { domain: 'attacker.example' },
        'This key cannot manage domains',
      ],
    ];
    for (const [method, path, json, error] of attempts) {
      const res = await request(`${base}${path}`, {
        method,
        apiKey: oldKey,
        json,
      });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body).toEqual({ error });
    }
    const [row] = await t.dataSource.query(
      'SELECT name, apiKeyPrefix FROM form WHERE id = ?',
      [form.id],
    );
    expect(row).toEqual({ name: 'Leads', apiKeyPrefix: newKey.slice(0, 12) });
    expect(
      await t.dataSource.query('SELECT id FROM webhook WHERE formId = ?', [
        form.id,
      ]),
    ).toEqual([]);
    // The owner's new key still does everything, rotating included.
    const read = await request(base, { apiKey: newKey });
    expect(read.status).toBe(200);
    expect(read.body.previousApiKey).toMatchObject({
      prefix: oldKey.slice(0, 12),
    });
    const renamed = await request(base, {
      method: 'PATCH',
      apiKey: newKey,
      json: { name: 'Renamed' },
    });
    expect(renamed.status).toBe(200);
    const again = await request(`${base}/api-key`, {
      method: 'POST',
      apiKey: newKey,
      json: { graceSeconds: 0 },
    });
    expect(again.status).toBe(200);
    expect((await request(base, { apiKey: oldKey })).status).toBe(403);
  });

  it('still reads the form and reads, exports, works and deletes its submissions', async () => {
    const { form, oldKey } = await rotated();
    const base = `${t.url}/api/v1/forms/${form.id}`;
    const [first, second] = await insertSubmissions(t, form.id, [
      { createdAt: new Date(Date.now() - 2000) },
      { createdAt: new Date(Date.now() - 1000) },
    ]);
    expect((await request(base, { apiKey: oldKey })).status).toBe(200);
    const list = await request(`${base}/submissions`, { apiKey: oldKey });
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(2);
    const exported = await request(`${base}/submissions/export?format=csv`, {
      apiKey: oldKey,
    });
    expect(exported.status).toBe(200);
    const spam = await request(`${base}/submissions/${first.id}`, {
      method: 'PATCH',
      apiKey: oldKey,
      json: { spam: true },
    });
    expect(spam.status).toBe(200);
    expect(spam.body).toMatchObject({ id: first.id, spam: true });
    const deleted = await request(`${base}/submissions/${second.id}`, {
      method: 'DELETE',
      apiKey: oldKey,
    });
    expect(deleted.status).toBe(204);
    expect(
      await t.dataSource.query('SELECT id FROM submission WHERE id = ?', [
        second.id,
      ]),
    ).toEqual([]);
  });
});
