// /api/v1/account/keys: listing, creating (read-only, expiring) and revoking account keys
// with an account key; what a read-only or expired key may do; when a key was last used.
import { createAccount, type TestAccount } from '../../factories/accounts.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import { expectProblem } from '../../support/answers.js';
import { request } from '../../support/http.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import { errorBody, INVALID_API_KEY } from '../../support/errors.js';
import { sha256 } from '../../support/forms-api.js';
import { sqlTime, storedForm, storedTime } from '../../support/stored-rows.js';

const ACCOUNT_KEY_REQUIRED = errorBody(
  'This route needs an account key (fga_…): a form key reaches only its own form',
);
const READ_ONLY = errorBody(
  'This API key is read-only: it may only read (GET requests)',
);
const EXPIRED = errorBody('API key expired');
const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

interface StoredKey {
  id: string;
  name: string;
  keyHash: string;
  readOnly: boolean;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

describe('account keys API (e2e)', () => {
  let t: TestApp;
  let owner: TestAccount;
  let contact: TestForm;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await createAccount(t);
    contact = await createForm(t, owner.account.id);
  });
  afterAll(async () => {
    await t.close();
  });

  const keysUrl = () => `${t.url}/api/v1/account/keys`;
  const create = (apiKey: string, json: unknown) =>
    request(keysUrl(), { apiKey, json });

  async function storedKey(hash: string): Promise<StoredKey | undefined> {
    const [row] = await t.dataSource.query(
      'SELECT id, name, keyHash, readOnly, expiresAt, lastUsedAt, revokedAt FROM account_api_key WHERE keyHash = ?',
      [hash],
    );
    if (!row) return undefined;
    return {
      ...row,
      readOnly: Boolean(Number(row.readOnly)),
      expiresAt: storedTime(row.expiresAt),
      lastUsedAt: storedTime(row.lastUsedAt),
      revokedAt: storedTime(row.revokedAt),
    };
  }

  it('creates a key shown once, lists it without the key, and it reaches every form', async () => {
    const res = await create(owner.apiKey, { name: '  Reporting job ' });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual([
      'id',
      'name',
      'prefix',
      'createdAt',
      'lastUsedAt',
      'role',
      'readOnly',
      'expiresAt',
      'apiKey',
    ]);
    const apiKey = res.body.apiKey as string;
    expect(apiKey).toMatch(/^fga_[A-Za-z0-9_-]{43}$/);
    expect(res.body).toMatchObject({
      name: 'Reporting job',
      prefix: apiKey.slice(0, 12),
      lastUsedAt: null,
      role: 'developer',
      readOnly: false,
      expiresAt: null,
    });
    expect(res.body.createdAt).toMatch(ISO_MS);
    expect(await storedKey(sha256(apiKey))).toMatchObject({
      id: res.body.id,
      name: 'Reporting job',
      readOnly: false,
      expiresAt: null,
      revokedAt: null,
    });

    const forms = await request(`${t.url}/api/v1/forms`, { apiKey });
    expect(forms.status).toBe(200);
    expect(forms.body.data.map((f: { id: string }) => f.id)).toEqual([
      contact.form.id,
    ]);

    const list = await request(keysUrl(), { apiKey });
    expect(list.status).toBe(200);
    const listed = list.body.data.find(
      (key: { id: string }) => key.id === res.body.id,
    );
    const { apiKey: _shownOnce, ...withoutKey } = res.body;
    expect(listed).toEqual({
      ...withoutKey,
      lastUsedAt: expect.stringMatching(ISO_MS),
    });
    expect(list.text).not.toContain(apiKey.slice(12));
    expect(list.text).not.toContain(sha256(apiKey));
  });

  it('revokes a key: 204, refused from then on, gone from the list, 404 the second time', async () => {
    const made = await create(owner.apiKey, { name: 'Short-lived' });
    const url = `${keysUrl()}/${made.body.id}`;
    const res = await request(url, { method: 'DELETE', apiKey: owner.apiKey });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await storedKey(sha256(made.body.apiKey)))?.revokedAt).toEqual(
      expect.any(Date),
    );
    const refused = await request(keysUrl(), { apiKey: made.body.apiKey });
    expectProblem(refused, 403, INVALID_API_KEY);
    const list = await request(keysUrl(), { apiKey: owner.apiKey });
    expect(list.body.data.map((k: { id: string }) => k.id)).not.toContain(
      made.body.id,
    );
    const again = await request(url, {
      method: 'DELETE',
      apiKey: owner.apiKey,
    });
    expectProblem(again, 404, errorBody('API key not found'));
  });

  it("cannot see or revoke another account's keys", async () => {
    const stranger = await createAccount(t);
    const theirs = await create(stranger.apiKey, { name: 'Theirs' });
    const list = await request(keysUrl(), { apiKey: owner.apiKey });
    expect(list.body.data.map((k: { id: string }) => k.id)).not.toContain(
      theirs.body.id,
    );
    const res = await request(`${keysUrl()}/${theirs.body.id}`, {
      method: 'DELETE',
      apiKey: owner.apiKey,
    });
    expect(res.status).toBe(404);
    expect((await storedKey(sha256(theirs.body.apiKey)))?.revokedAt).toBe(null);
  });

  it('refuses a form key on every account key route (403), changing nothing', async () => {
    const victim = await create(owner.apiKey, { name: 'Victim' });
    const attempts = [
      await request(keysUrl(), { apiKey: contact.apiKey }),
      await create(contact.apiKey, { name: 'Sneaky' }),
      await request(`${keysUrl()}/${victim.body.id}`, {
        method: 'DELETE',
        apiKey: contact.apiKey,
      }),
    ];
    for (const res of attempts) {
      expectProblem(res, 403, ACCOUNT_KEY_REQUIRED);
    }
    const [{ n }] = await t.dataSource.query(
      "SELECT COUNT(*) AS n FROM account_api_key WHERE name = 'Sneaky'",
    );
    expect(Number(n)).toBe(0);
    expect((await storedKey(sha256(victim.body.apiKey)))?.revokedAt).toBe(null);
  });

  it('a read-only key reads, but may not create or revoke keys, nor change a form', async () => {
    const res = await create(owner.apiKey, {
      name: 'Reports',
      readOnly: true,
    });
    expect(res.status).toBe(201);
    expect(res.body.readOnly).toBe(true);
    const readOnly = res.body.apiKey as string;
    expect((await storedKey(sha256(readOnly)))?.readOnly).toBe(true);

    expect((await request(keysUrl(), { apiKey: readOnly })).status).toBe(200);
    const form = await request(`${t.url}/api/v1/forms/${contact.form.id}`, {
      apiKey: readOnly,
    });
    expect(form.status).toBe(200);

    const refused = [
      await create(readOnly, { name: 'Escalated' }),
      await request(`${keysUrl()}/${res.body.id}`, {
        method: 'DELETE',
        apiKey: readOnly,
      }),
      await request(`${t.url}/api/v1/forms/${contact.form.id}`, {
        method: 'PATCH',
        apiKey: readOnly,
        json: { name: 'Renamed' },
      }),
    ];
    for (const attempt of refused) {
      expectProblem(attempt, 403, READ_ONLY);
    }
    expect((await storedForm(t, contact.form.id))?.name).toBe('Contact');
    expect((await storedKey(sha256(readOnly)))?.revokedAt).toBe(null);
  });

  it('an expiring key works until its expiry, then answers 403 "API key expired"', async () => {
    const expiresAt = new Date(Date.now() + 3600_000);
    const res = await create(owner.apiKey, {
      name: 'Contractor',
      expiresAt: expiresAt.toISOString(),
    });
    expect(res.status).toBe(201);
    expect(res.body.expiresAt).toBe(expiresAt.toISOString());
    const key = res.body.apiKey as string;
    expect((await storedKey(sha256(key)))?.expiresAt).toEqual(expiresAt);
    expect((await request(keysUrl(), { apiKey: key })).status).toBe(200);

    // The moment passes (as the clock would move it).
    await t.dataSource.query(
      'UPDATE account_api_key SET expiresAt = ? WHERE keyHash = ?',
      [sqlTime(new Date(Date.now() - 1000)), sha256(key)],
    );
    for (const url of [keysUrl(), `${t.url}/api/v1/forms`]) {
      const refused = await request(url, { apiKey: key });
      expectProblem(refused, 403, EXPIRED);
    }
  });

  it('a key that expires may only create keys that expire no later than itself', async () => {
    const limit = new Date(Date.now() + 3600_000);
    const expiring = await create(owner.apiKey, {
      name: 'Temporary',
      expiresAt: limit.toISOString(),
    });
    const key = expiring.body.apiKey as string;
    const message = `expiresAt must be no later than ${limit.toISOString()}, when the key creating it expires`;
    for (const body of [
      { name: 'Forever' },
      {
        name: 'Longer',
        expiresAt: new Date(limit.getTime() + 1000).toISOString(),
      },
    ]) {
      const res = await create(key, body);
      expectProblem(res, 400, errorBody('Validation failed', [message]));
    }
    const ok = await create(key, {
      name: 'Shorter',
      expiresAt: new Date(limit.getTime() - 1000).toISOString(),
    });
    expect(ok.status).toBe(201);
  });

  it('refuses a bad body with 400 and one message per problem, storing nothing', async () => {
    const cases: Array<[unknown, string[]]> = [
      [{}, ['name is required']],
      [{ name: '' }, ['name must be 1 to 100 characters long']],
      [{ name: 'x', readOnly: 'yes' }, ['readOnly must be true or false']],
      [
        { name: 'x', expiresAt: '2026-12-31T10:00:00' },
        [
          'expiresAt must be an ISO 8601 date, or a date and time with its time zone (e.g. 2026-12-31T23:59:59Z)',
        ],
      ],
      [
        { name: 'x', expiresAt: '2020-01-01T00:00:00Z' },
        ['expiresAt must be in the future'],
      ],
      [{ name: 'x', scopes: ['all'] }, ['property scopes should not exist']],
    ];
    const before = await t.dataSource.query(
      'SELECT COUNT(*) AS n FROM account_api_key',
    );
    for (const [body, errors] of cases) {
      const res = await create(owner.apiKey, body);
      expectProblem(
        res,
        400,
        errorBody('Validation failed', errors),
        JSON.stringify(body),
      );
    }
    const after = await t.dataSource.query(
      'SELECT COUNT(*) AS n FROM account_api_key',
    );
    expect(Number(after[0].n)).toBe(Number(before[0].n));
  });

  it('records when a key was last used, at most once a minute', async () => {
    const made = await create(owner.apiKey, { name: 'Watched' });
    const key = made.body.apiKey as string;
    const hash = sha256(key);
    expect((await storedKey(hash))?.lastUsedAt).toBe(null);

    const before = Date.now();
    expect((await request(keysUrl(), { apiKey: key })).status).toBe(200);
    const first = (await storedKey(hash))?.lastUsedAt;
    expect(first!.getTime()).toBeGreaterThanOrEqual(before - 1);

    // Within the minute: the mark stays as it was.
    expect((await request(keysUrl(), { apiKey: key })).status).toBe(200);
    expect((await storedKey(hash))?.lastUsedAt).toEqual(first);

    // A minute later (the mark moved back, as time would): marked again.
    const stale = new Date(Date.now() - 61_000);
    await t.dataSource.query(
      'UPDATE account_api_key SET lastUsedAt = ? WHERE keyHash = ?',
      [sqlTime(stale), hash],
    );
    expect((await request(keysUrl(), { apiKey: key })).status).toBe(200);
    const second = (await storedKey(hash))?.lastUsedAt;
    expect(second!.getTime()).toBeGreaterThan(stale.getTime() + 60_000);

    const list = await request(keysUrl(), { apiKey: owner.apiKey });
    expect(
      list.body.data.find((k: { id: string }) => k.id === made.body.id)
        .lastUsedAt,
    ).toBe(second!.toISOString());
  });
});
