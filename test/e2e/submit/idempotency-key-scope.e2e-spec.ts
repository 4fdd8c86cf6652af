// An Idempotency-Key on /api/v1 belongs to the API key that sent it, never to its account
// or form: the same header and body from another key of the account is a request of its
// own (never a replay of the first key's answer, whose secret it would hand over), and an
// expiring key cannot obtain by replay a key that outlives it. The key that sent it still
// gets its answer again.
import { createAccount, type TestAccount } from '../../factories/accounts.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import { request } from '../../support/http.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

let counter = 0;
const newKey = () => `scope-${Date.now()}-${++counter}`;

describe('Idempotency-Key scope: the API key that sent it (e2e)', () => {
  let t: TestApp;
  let owner: TestAccount;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await createAccount(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  const createKey = (apiKey: string, key: string, json: unknown) =>
    request(`${t.url}/api/v1/account/keys`, {
      apiKey,
      json,
      headers: { 'idempotency-key': key },
    });

  it('gives a second account key its own answer, not the first key’s secret', async () => {
    const second = await createKey(owner.apiKey, newKey(), { name: 'second' });
    expect(second.status).toBe(201);
    const key = newKey();
    const first = await createKey(owner.apiKey, key, { name: 'reporting' });
    expect(first.status).toBe(201);

    const other = await createKey(second.body.apiKey as string, key, {
      name: 'reporting',
    });
    expect(other.status).toBe(201);
    expect(other.headers.get('idempotent-replayed')).toBeNull();
    expect(other.body.apiKey).toMatch(/^fga_/);
    expect(other.body.apiKey).not.toBe(first.body.apiKey);
    expect(other.body.id).not.toBe(first.body.id);

    // The first key still gets its own answer again.
    const again = await createKey(owner.apiKey, key, { name: 'reporting' });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);

    const listed = await request(`${t.url}/api/v1/account/keys`, {
      apiKey: owner.apiKey,
    });
    const names = (listed.body.data as Array<{ name: string }>).map(
      (k) => k.name,
    );
    expect(names.filter((name) => name === 'reporting')).toHaveLength(2);
  });

  it('does not let an expiring key replay a permanent key into its hands', async () => {
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
    const expiring = await createKey(owner.apiKey, newKey(), {
      name: 'expiring',
      expiresAt,
    });
    expect(expiring.status).toBe(201);
    const key = newKey();
    const permanent = await createKey(owner.apiKey, key, { name: 'forever' });
    expect(permanent.status).toBe(201);
    expect(permanent.body.expiresAt).toBeNull();

    const attempt = await createKey(expiring.body.apiKey as string, key, {
      name: 'forever',
    });
    expect(attempt.status).toBe(400);
    expect(attempt.headers.get('idempotent-replayed')).toBeNull();
    expect(attempt.body.error).toBe('Validation failed');
    expect(attempt.text).not.toContain(permanent.body.apiKey as string);
  });

  it('keeps a form’s previous key (during a rotation’s grace) out of the rotation’s answer', async () => {
    const form: TestForm = await createForm(t, owner.account.id);
    const key = newKey();
    const rotate = (apiKey: string) =>
      request(`${t.url}/api/v1/forms/${form.form.id}/api-key`, {
        apiKey,
        json: { graceSeconds: 3600 },
        headers: { 'idempotency-key': key },
      });
    const rotated = await rotate(form.apiKey);
    expect(rotated.status).toBe(200);
    const newFormKey = rotated.body.apiKey as string;
    expect(newFormKey).toMatch(/^fgk_/);

    // The new key repeating it is another key: never the old key's kept answer.
    const byNewKey = await rotate(newFormKey);
    expect(byNewKey.headers.get('idempotent-replayed')).toBeNull();
    // And the replaced key, still in its grace, does not learn the new key by replay.
    const byOldKey = await rotate(form.apiKey);
    expect(byOldKey.headers.get('idempotent-replayed')).toBeNull();
    expect(byOldKey.text).not.toContain(newFormKey);
  });
});
