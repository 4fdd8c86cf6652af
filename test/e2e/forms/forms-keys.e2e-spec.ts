// A form's key: regenerating it (POST /api/v1/forms/:id/api-key), alone or with a grace
// period during which the key it replaced still works — on one instance and on two sharing
// a database — and what that previous key may still do; when a form key was last used;
// and a full key never shown outside creation and regeneration.
import { createAccount, type TestAccount } from '../../factories/accounts.js';
import { CONTACT_FIELDS, createForm } from '../../factories/forms.js';
import { insertSubmissions } from '../../factories/submissions.js';
import { FormsService } from '../../../src/forms/forms.service.js';
import { expectProblem } from '../../support/answers.js';
import { request } from '../../support/http.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import {
  createTestDatabase,
  type TestDatabase,
} from '../../support/test-database.js';
import {
  errorBody,
  FORM_NOT_FOUND,
  INVALID_API_KEY,
} from '../../support/errors.js';
import {
  FORM_KEYS,
  formsApi,
  ISO_MS,
  sha256,
} from '../../support/forms-api.js';
import { sqlTime, storedTime } from '../../support/stored-rows.js';

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

describe('form keys (e2e)', () => {
  let t: TestApp;
  let owner: TestAccount;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await createAccount(t);
  });
  afterAll(async () => {
    await t.close();
  });

  const { forms, formUrl, stored, post } = formsApi(() => t);

  describe('POST /api/v1/forms/:id/api-key', () => {
    it('issues a new key and the old one is refused at once', async () => {
      const form = await createForm(t, owner.account.id);
      const res = await request(`${formUrl(form.form.id)}/api-key`, {
        method: 'POST',
        apiKey: form.apiKey,
      });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['apiKey']);
      const { apiKey } = res.body;
      expect(apiKey).toMatch(/^fgk_[A-Za-z0-9_-]{43}$/);
      expect(apiKey).not.toBe(form.apiKey);

      const old = await request(formUrl(form.form.id), { apiKey: form.apiKey });
      expectProblem(old, 403, INVALID_API_KEY);

      const fresh = await request(formUrl(form.form.id), { apiKey });
      expect(fresh.status).toBe(200);
      expect(fresh.body.apiKeyPrefix).toBe(apiKey.slice(0, 12));

      const row = await stored(form.form.id);
      expect(row).toMatchObject({
        apiKeyHash: sha256(apiKey),
        apiKeyPrefix: apiKey.slice(0, 12),
        name: 'Contact',
        fields: CONTACT_FIELDS,
      });
      expect(
        await t.app
          .get(FormsService)
          .revealApiKey(owner.account.id, form.form.id),
      ).toBe(apiKey);
    });

    it('works with the account key too', async () => {
      const form = await createForm(t, owner.account.id);
      const res = await request(`${formUrl(form.form.id)}/api-key`, {
        method: 'POST',
        apiKey: owner.apiKey,
      });
      expect(res.status).toBe(200);
      expect((await request(forms(), { apiKey: form.apiKey })).status).toBe(
        403,
      );
      expect((await request(forms(), { apiKey: res.body.apiKey })).status).toBe(
        200,
      );
    });

    it('answers 404 for an unknown form', async () => {
      const res = await request(`${formUrl('no-such-form')}/api-key`, {
        method: 'POST',
        apiKey: owner.apiKey,
      });
      expectProblem(res, 404, FORM_NOT_FOUND);
    });

    it('rotating a form key revokes that key only, not the keys of forms it created', async () => {
      const { account } = await createAccount(t);
      const original = await createForm(t, account.id);
      const child = await request(forms(), {
        apiKey: original.apiKey,
        json: { name: 'Created with the original key' },
      });
      expect(child.status).toBe(201);
      const rotated = await request(`${forms()}/${original.form.id}/api-key`, {
        method: 'POST',
        apiKey: original.apiKey,
      });
      expect(rotated.status).toBe(200);

      expect((await request(forms(), { apiKey: original.apiKey })).status).toBe(
        403,
      );
      const stillWorks = await request(forms(), { apiKey: child.body.apiKey });
      expect(stillWorks.status).toBe(200);
      expect(stillWorks.body.data.map((f: { id: string }) => f.id)).toEqual([
        child.body.id,
      ]);
    });
  });

  it('never shows a full key outside creation and regeneration', async () => {
    const created = await post(owner.apiKey, { name: 'Secretive' });
    const key = created.body.apiKey as string;
    const url = formUrl(created.body.id);
    const responses = [
      await request(forms(), { apiKey: key }),
      await request(forms(), { apiKey: owner.apiKey }),
      await request(url, { apiKey: key }),
      await request(url, { method: 'PUT', apiKey: key, json: { name: 'S' } }),
      await request(url, { method: 'PATCH', apiKey: key, json: { name: 'S' } }),
      await request(url, {
        method: 'PATCH',
        apiKey: key,
        json: { apiKey: key },
      }),
      await request(`${forms()}/elsewhere`, { apiKey: key }),
    ];
    for (const res of responses) {
      expect(res.status).toBeLessThan(500);
      expect(res.text).not.toContain(key.slice(4));
      expect(res.text).not.toContain(owner.apiKey.slice(4));
      expect(res.text).not.toContain(sha256(key));
      expect(res.text).not.toMatch(/apiKeyHash|apiKeyEncrypted|accountId/);
    }
  });

  describe('with graceSeconds', () => {
    it('keeps the old key valid for graceSeconds beside the new one, and shows it on the form', async () => {
      const { form, apiKey: oldKey } = await createForm(t, owner.account.id);
      const before = Date.now();
      const res = await rotate(t, form.id, oldKey, { graceSeconds: DAY_S });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['apiKey']);
      const newKey = res.body.apiKey as string;
      expect(newKey).toMatch(/^fgk_[A-Za-z0-9_-]{43}$/);

      const keys = await storedKeys(t, form.id);
      expect(keys.apiKeyHash).toBe(sha256(newKey));
      expect(keys.previousApiKeyHash).toBe(sha256(oldKey));
      expect(keys.previousApiKeyPrefix).toBe(oldKey.slice(0, 12));
      const expiry = keys.previousApiKeyExpiresAt!.getTime();
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
        expectProblem(res, 403, INVALID_API_KEY);
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
      const second = (await rotate(t, form.id, first, { graceSeconds: 60 }))
        .body.apiKey as string;
      const third = (await rotate(t, form.id, second, { graceSeconds: 60 }))
        .body.apiKey as string;
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
        [
          { graceSeconds: 1.5 },
          'graceSeconds must be a whole number of seconds',
        ],
        [
          { graceSeconds: '60' },
          'graceSeconds must be a whole number of seconds',
        ],
        [{ grace: 60 }, 'property grace should not exist'],
      ];
      for (const [body, message] of cases) {
        const res = await rotate(t, form.id, apiKey, body);
        expectProblem(
          res,
          400,
          errorBody('Validation failed', [message]),
          JSON.stringify(body),
        );
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
        (await request(formUrl(form.id), { apiKey: rotated.body.apiKey }))
          .status,
      ).toBe(200);
    });
  });

  describe('the previous key during the grace', () => {
    async function rotated() {
      const { form, apiKey: oldKey } = await createForm(t, owner.account.id, {
        name: 'Leads',
      });
      const res = await rotate(t, form.id, oldKey, { graceSeconds: 3600 });
      expect(res.status).toBe(200);
      return { form, oldKey, newKey: res.body.apiKey as string };
    }

    it('cannot rotate, delete or change the form, its webhooks or its domains (403), and nothing changes', async () => {
      const { form, oldKey, newKey } = await rotated();
      const base = `${t.url}/api/v1/forms/${form.id}`;
      const attempts: Array<[string, string, unknown, string]> = [
        [
          'POST',
          '/api-key',
          { graceSeconds: 0 },
          'This key cannot manage keys',
        ],
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
        expectProblem(res, 403, error, `${method} ${path}`);
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
      expectProblem(refused, 403, INVALID_API_KEY);
      const fresh = await read(instance, newKey);
      expect(fresh.status).toBe(200);
      expect(fresh.body.previousApiKey).toBeNull();
    }
    vi.useRealTimers();
  });
});
