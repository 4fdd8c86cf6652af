// An expiring key cannot outlive itself through what it makes: a form it creates, or a form
// key it rotates, gets a key that expires when it does (a rotation's grace included), a form
// key past its expiry is refused (403 "API key expired"), and it may not revoke or replace a
// key that outlives it (403). Keys that never expire keep working as before.
import { Form } from '../../../src/forms/form.entity.js';
import { createAccount, type TestAccount } from '../../factories/accounts.js';
import { createForm } from '../../factories/forms.js';
import { expectProblem } from '../../support/answers.js';
import { request } from '../../support/http.js';
import { storedTime } from '../../support/stored-rows.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

const outlived = (limit: string) =>
  `This API key expires at ${limit}: it cannot act on a key that outlives it`;

describe('what an expiring key may make and touch (e2e)', () => {
  let t: TestApp;
  let owner: TestAccount;
  let expiring: { id: string; apiKey: string; expiresAt: string };

  beforeAll(async () => {
    t = await createTestApp();
    owner = await createAccount(t);
    const created = await request(`${t.url}/api/v1/account/keys`, {
      apiKey: owner.apiKey,
      json: {
        name: 'contractor',
        expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
      },
    });
    expect(created.status).toBe(201);
    expiring = created.body as typeof expiring;
  });
  afterAll(async () => {
    await t?.close();
  });

  const storedExpiry = async (formId: string) =>
    storedTime(
      (
        await t.dataSource
          .getRepository(Form)
          .findOneOrFail({ where: { id: formId } })
      ).apiKeyExpiresAt,
    );
  const createFormWith = (apiKey: string, name = 'Made by a key') =>
    request(`${t.url}/api/v1/forms`, { apiKey, json: { name } });
  const rotate = (apiKey: string, formId: string, graceSeconds = 0) =>
    request(`${t.url}/api/v1/forms/${formId}/api-key`, {
      apiKey,
      json: { graceSeconds },
    });

  it('gives a form it creates a key that expires with it', async () => {
    const created = await createFormWith(expiring.apiKey);
    expect(created.status).toBe(201);
    expect(created.body.apiKeyExpiresAt).toBe(expiring.expiresAt);
    expect((await storedExpiry(created.body.id))?.toISOString()).toBe(
      expiring.expiresAt,
    );
    const read = await request(`${t.url}/api/v1/forms/${created.body.id}`, {
      apiKey: created.body.apiKey,
    });
    expect(read.status).toBe(200);
    expect(read.body.apiKeyExpiresAt).toBe(expiring.expiresAt);

    // Created with the account's permanent key: no expiry, as before.
    const permanent = await createFormWith(owner.apiKey);
    expect(permanent.status).toBe(201);
    expect(permanent.body).not.toHaveProperty('apiKeyExpiresAt');
    expect(await storedExpiry(permanent.body.id)).toBeNull();
  });

  it('rotates a key that expires no later into one that expires with it, grace included', async () => {
    const created = await createFormWith(expiring.apiKey);
    const rotated = await rotate(expiring.apiKey, created.body.id, 604_800);
    expect(rotated.status).toBe(200);
    expect(rotated.body.apiKey).toMatch(/^fgk_/);
    expect((await storedExpiry(created.body.id))?.toISOString()).toBe(
      expiring.expiresAt,
    );
    const shown = await request(`${t.url}/api/v1/forms/${created.body.id}`, {
      apiKey: rotated.body.apiKey,
    });
    expect(shown.status).toBe(200);
    expect(shown.body.apiKeyExpiresAt).toBe(expiring.expiresAt);
    // A week's grace asked for, but the replaced key never outlives its own expiry.
    expect(shown.body.previousApiKey.expiresAt).toBe(expiring.expiresAt);

    // The owner's permanent key rotating it makes a permanent key again.
    const byOwner = await rotate(owner.apiKey, created.body.id);
    expect(byOwner.status).toBe(200);
    expect(await storedExpiry(created.body.id)).toBeNull();
  });

  it('refuses to rotate a form key that outlives it (403), leaving the key as it was', async () => {
    const { account } = owner;
    const form = await createForm(t, account.id);
    const refused = await rotate(expiring.apiKey, form.form.id);
    expectProblem(refused, 403, { error: outlived(expiring.expiresAt) });
    const still = await request(`${t.url}/api/v1/forms/${form.form.id}`, {
      apiKey: form.apiKey,
    });
    expect(still.status).toBe(200);
    expect(await storedExpiry(form.form.id)).toBeNull();
  });

  it('refuses to revoke an account key that outlives it (403), revokes one that does not', async () => {
    const refused = await request(
      `${t.url}/api/v1/account/keys/${(await keyIdOf(owner.apiKey))!}`,
      { apiKey: expiring.apiKey, method: 'DELETE' },
    );
    expectProblem(refused, 403, { error: outlived(expiring.expiresAt) });
    expect(
      (await request(`${t.url}/api/v1/account/keys`, { apiKey: owner.apiKey }))
        .status,
    ).toBe(200);

    const sooner = await request(`${t.url}/api/v1/account/keys`, {
      apiKey: expiring.apiKey,
      json: {
        name: 'shorter',
        expiresAt: new Date(Date.now() + 600_000).toISOString(),
      },
    });
    expect(sooner.status).toBe(201);
    const revoked = await request(
      `${t.url}/api/v1/account/keys/${sooner.body.id}`,
      { apiKey: expiring.apiKey, method: 'DELETE' },
    );
    expect(revoked.status).toBe(204);
    const gone = await request(`${t.url}/api/v1/account/keys`, {
      apiKey: sooner.body.apiKey,
    });
    expect(gone.status).toBe(403);
    // Unknown keys still answer 404, whoever asks.
    const unknown = await request(`${t.url}/api/v1/account/keys/nope`, {
      apiKey: expiring.apiKey,
      method: 'DELETE',
    });
    expect(unknown.status).toBe(404);
  });

  it('refuses a form key past its expiry (403 "API key expired")', async () => {
    const created = await createFormWith(expiring.apiKey);
    // What a passing hour does: the stored expiry is now behind us.
    await t.dataSource
      .getRepository(Form)
      .update(
        { id: created.body.id },
        { apiKeyExpiresAt: new Date(Date.now() - 1000) },
      );
    const refused = await request(`${t.url}/api/v1/forms/${created.body.id}`, {
      apiKey: created.body.apiKey,
    });
    expectProblem(refused, 403, 'API key expired');
    // The owner's key still reaches the form, and can give it a working key.
    const rotated = await rotate(owner.apiKey, created.body.id);
    expect(rotated.status).toBe(200);
    const works = await request(`${t.url}/api/v1/forms/${created.body.id}`, {
      apiKey: rotated.body.apiKey,
    });
    expect(works.status).toBe(200);
  });

  it('makes an expiring form key create forms whose keys expire no later', async () => {
    const created = await createFormWith(expiring.apiKey);
    const child = await createFormWith(created.body.apiKey, 'Child');
    expect(child.status).toBe(201);
    expect(child.body.apiKeyExpiresAt).toBe(expiring.expiresAt);
    // And it may rotate its own key (which does not outlive it).
    const own = await rotate(created.body.apiKey, created.body.id);
    expect(own.status).toBe(200);
    expect((await storedExpiry(created.body.id))?.toISOString()).toBe(
      expiring.expiresAt,
    );
  });

  async function keyIdOf(apiKey: string): Promise<string | undefined> {
    const listed = await request(`${t.url}/api/v1/account/keys`, {
      apiKey: owner.apiKey,
    });
    const prefix = apiKey.slice(0, 12);
    return (listed.body.data as Array<{ id: string; prefix: string }>).find(
      (key) => key.prefix === prefix,
    )?.id;
  }
});
