// Rotating a form's key with a grace period (POST /api/v1/forms/:id/api-key with
// graceSeconds), on one instance and on two sharing a database, and when a form key was
// last used.
import { createAccount, type TestAccount } from '../../factories/accounts.js';
import { createForm } from '../../factories/forms.js';
import { request } from '../../support/http.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import {
  createTestDatabase,
  type TestDatabase,
} from '../../support/test-database.js';
import { errorBody, INVALID_API_KEY } from '../../support/errors.js';
import { FORM_KEYS, sha256 } from '../../support/forms-api.js';
import { sqlTime, storedTime } from '../../support/stored-rows.js';

const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const DAY_S = 86_400;

interface StoredKeys {
  apiKeyHash: string;
  apiKeyLastUsedAt: Date | null;
  previousApiKeyHash: string | null;
  previousApiKeyPrefix: string | null;
  previousApiKeyExpiresAt: Date | null;
  previousApiKeyLastUsedAt: Date | null;
}

async function storedKeys(t: TestApp, formId: string): Promise<StoredKeys> {
  const [row] = await t.dataSource.query(
    'SELECT apiKeyHash, apiKeyLastUsedAt, previousApiKeyHash, previousApiKeyPrefix, previousApiKeyExpiresAt, previousApiKeyLastUsedAt FROM form WHERE id = ?',
    [formId],
  );
  return {
    ...row,
    apiKeyLastUsedAt: storedTime(row.apiKeyLastUsedAt),
    previousApiKeyExpiresAt: storedTime(row.previousApiKeyExpiresAt),
    previousApiKeyLastUsedAt: storedTime(row.previousApiKeyLastUsedAt),
  };
}

function rotate(t: TestApp, formId: string, apiKey: string, json?: unknown) {
  return request(`${t.url}/api/v1/forms/${formId}/api-key`, {
    method: 'POST',
    apiKey,
    json,
  });
}

describe('form key rotation (e2e)', () => {
  let t: TestApp;
  let owner: TestAccount;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await createAccount(t);
  });
  afterAll(async () => {
    await t.close();
  });

  const formUrl = (id: string) => `${t.url}/api/v1/forms/${id}`;

  it('keeps the old key valid for graceSeconds beside the new one, and shows it on the form', async () => {
    const { form, apiKey: oldKey } = await createForm(t, owner.account.id);
    const before = Date.now();
    const res = await rotate(t, form.id, oldKey, { graceSeconds: DAY_S });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['apiKey']);
    const newKey = res.body.apiKey as string;
    expect(newKey).toMatch(/^fgk_[A-Za-z0-9_-]{43}$/);

    const stored = await storedKeys(t, form.id);
    expect(stored.apiKeyHash).toBe(sha256(newKey));
    expect(stored.previousApiKeyHash).toBe(sha256(oldKey));
    expect(stored.previousApiKeyPrefix).toBe(oldKey.slice(0, 12));
    const expiry = stored.previousApiKeyExpiresAt!.getTime();
    expect(expiry).toBeGreaterThanOrEqual(before + DAY_S * 1000 - 1);
    expect(expiry).toBeLessThanOrEqual(Date.now() + DAY_S * 1000);

    for (const key of [oldKey, newKey]) {
      const read = await request(formUrl(form.id), { apiKey: key });
      expect(read.status).toBe(200);
      expect(Object.keys(read.body)).toEqual(FORM_KEYS);
      expect(read.body.apiKeyPrefix).toBe(newKey.slice(0, 12));
      expect(read.body.previousApiKey).toEqual({
        prefix: oldKey.slice(0, 12),
        expiresAt: new Date(expiry).toISOString(),
        lastUsedAt: expect.stringMatching(ISO_MS),
      });
      expect(read.text).not.toContain(oldKey.slice(12));
    }
  });

  it('with no body, or graceSeconds 0, refuses the old key at once and ends an earlier grace', async () => {
    const { form, apiKey: first } = await createForm(t, owner.account.id);
    const graced = await rotate(t, form.id, first, { graceSeconds: 3600 });
    const second = graced.body.apiKey as string;
    expect((await request(formUrl(form.id), { apiKey: first })).status).toBe(
      200,
    );

    const plain = await rotate(t, form.id, second);
    expect(plain.status).toBe(200);
    const third = plain.body.apiKey as string;
    for (const old of [first, second]) {
      const res = await request(formUrl(form.id), { apiKey: old });
      expect(res.status).toBe(403);
      expect(res.body).toEqual(INVALID_API_KEY);
    }
    const read = await request(formUrl(form.id), { apiKey: third });
    expect(read.body.previousApiKey).toBeNull();
    expect(await storedKeys(t, form.id)).toMatchObject({
      previousApiKeyHash: null,
      previousApiKeyExpiresAt: null,
    });

    const zero = await rotate(t, form.id, third, { graceSeconds: 0 });
    expect(zero.status).toBe(200);
    expect((await request(formUrl(form.id), { apiKey: third })).status).toBe(
      403,
    );
  });

  it('a second rotation with grace keeps only the key it replaced', async () => {
    const { form, apiKey: first } = await createForm(t, owner.account.id);
    const second = (await rotate(t, form.id, first, { graceSeconds: 60 })).body
      .apiKey as string;
    const third = (await rotate(t, form.id, second, { graceSeconds: 60 })).body
      .apiKey as string;
    expect((await request(formUrl(form.id), { apiKey: first })).status).toBe(
      403,
    );
    expect((await request(formUrl(form.id), { apiKey: second })).status).toBe(
      200,
    );
    expect((await request(formUrl(form.id), { apiKey: third })).status).toBe(
      200,
    );
  });

  it('refuses a graceSeconds outside 0–604800 or not a whole number, keeping the key', async () => {
    const { form, apiKey } = await createForm(t, owner.account.id);
    const cases: Array<[unknown, string]> = [
      [{ graceSeconds: -1 }, 'graceSeconds must be 0 to 604800'],
      [{ graceSeconds: 604_801 }, 'graceSeconds must be 0 to 604800'],
      [{ graceSeconds: 1.5 }, 'graceSeconds must be a whole number of seconds'],
      [
        { graceSeconds: '60' },
        'graceSeconds must be a whole number of seconds',
      ],
      [{ grace: 60 }, 'property grace should not exist'],
    ];
    for (const [body, message] of cases) {
      const res = await rotate(t, form.id, apiKey, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toEqual(errorBody('Validation failed', [message]));
    }
    expect((await storedKeys(t, form.id)).apiKeyHash).toBe(sha256(apiKey));
    const max = await rotate(t, form.id, apiKey, { graceSeconds: 604_800 });
    expect(max.status).toBe(200);
  });

  it('records when the form key was last used, at most once a minute', async () => {
    const { form, apiKey } = await createForm(t, owner.account.id);
    const created = await request(formUrl(form.id), { apiKey: owner.apiKey });
    expect(created.body.apiKeyLastUsedAt).toBeNull();
    expect((await storedKeys(t, form.id)).apiKeyLastUsedAt).toBeNull();

    const before = Date.now();
    const used = await request(formUrl(form.id), { apiKey });
    expect(used.status).toBe(200);
    const first = (await storedKeys(t, form.id)).apiKeyLastUsedAt!;
    expect(first.getTime()).toBeGreaterThanOrEqual(before - 1);

    await request(formUrl(form.id), { apiKey });
    expect((await storedKeys(t, form.id)).apiKeyLastUsedAt).toEqual(first);
    const shown = await request(formUrl(form.id), { apiKey: owner.apiKey });
    expect(shown.body.apiKeyLastUsedAt).toBe(first.toISOString());

    const stale = new Date(Date.now() - 61_000);
    await t.dataSource.query(
      'UPDATE form SET apiKeyLastUsedAt = ? WHERE id = ?',
      [sqlTime(stale), form.id],
    );
    await request(formUrl(form.id), { apiKey });
    const second = (await storedKeys(t, form.id)).apiKeyLastUsedAt!;
    expect(second.getTime()).toBeGreaterThan(stale.getTime() + 60_000);

    // A rotation starts the new key unused; the replaced key keeps its own mark.
    const rotated = await rotate(t, form.id, apiKey, { graceSeconds: 60 });
    const after = await storedKeys(t, form.id);
    expect(after.apiKeyLastUsedAt).toBeNull();
    expect(after.previousApiKeyLastUsedAt).toEqual(second);
    expect(
      (await request(formUrl(form.id), { apiKey: rotated.body.apiKey })).status,
    ).toBe(200);
  });
});

describe('form key rotation across two instances (e2e)', () => {
  let database: TestDatabase;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    database = await createTestDatabase({ shared: true });
    a = await createTestApp({ database });
    b = await createTestApp({ database, env: { MIGRATIONS_RUN: 'false' } });
  });
  afterAll(async () => {
    vi.useRealTimers();
    await b?.close();
    await a?.close();
    await database?.drop();
  });

  it('accepts the old key on both during the grace, and refuses it on both once it has passed', async () => {
    const { account } = await createAccount(a);
    const { form, apiKey: oldKey } = await createForm(a, account.id);
    const res = await rotate(a, form.id, oldKey, { graceSeconds: 3600 });
    expect(res.status).toBe(200);
    const newKey = res.body.apiKey as string;

    const read = (t: TestApp, apiKey: string) =>
      request(`${t.url}/api/v1/forms/${form.id}`, { apiKey });
    for (const instance of [a, b]) {
      expect((await read(instance, oldKey)).status).toBe(200);
      expect((await read(instance, newKey)).status).toBe(200);
    }

    // An hour and a second later on both instances' clock (only Date moves: timers,
    // sockets and the database run as they do).
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 3601_000);
    for (const instance of [b, a]) {
      const refused = await read(instance, oldKey);
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual(INVALID_API_KEY);
      const fresh = await read(instance, newKey);
      expect(fresh.status).toBe(200);
      expect(fresh.body.previousApiKey).toBeNull();
    }
    vi.useRealTimers();
  });
});
