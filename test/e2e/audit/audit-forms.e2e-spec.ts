// The audit log records each change of a form — over the API with an account key or a form
// key, in the dashboard as a member — as exactly one event with its actor, target and
// details; a refused change records none, and no key ever appears in an event.
import {
  createAccount,
  createAccountApiKey,
  type TestAccount,
} from '../../factories/accounts.js';
import { createForm } from '../../factories/forms.js';
import { request } from '../../support/http.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import { eventsSince, rawEvents, storedEvents } from './audit-support.js';

describe('audit events of forms (e2e)', () => {
  let t: TestApp;
  let owner: TestAccount;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await createAccount(t);
  });
  afterAll(async () => {
    await t.close();
  });

  const formsUrl = () => `${t.url}/api/v1/forms`;
  const prefixOf = (key: string) => key.slice(0, 12);

  async function count(): Promise<number> {
    return (await storedEvents(t, owner.account.id)).length;
  }

  it('records a form created with an account key, its actor the key', async () => {
    const before = await count();
    const created = await request(formsUrl(), {
      apiKey: owner.apiKey,
      headers: { 'user-agent': 'audit-test/1' },
      json: { name: 'Leads', fields: [{ id: 'email', type: 'email' }] },
    });
    expect(created.status).toBe(201);
    const events = await eventsSince(t, owner.account.id, before);
    expect(events).toHaveLength(1);
    const [keyRow] = await t.dataSource.query(
      'SELECT id, prefix FROM account_api_key WHERE accountId = ? ORDER BY createdAt LIMIT 1',
      [owner.account.id],
    );
    expect(events[0]).toMatchObject({
      action: 'form.created',
      actorType: 'account-key',
      actorId: keyRow.id,
      actorLabel: keyRow.prefix,
      targetType: 'form',
      targetId: created.body.id,
      userAgent: 'audit-test/1',
      details: { name: 'Leads', fields: ['email'] },
    });
    expect(events[0].ip).toBe('127.0.0.1');
    expect(owner.apiKey.startsWith(keyRow.prefix)).toBe(true);
  });

  it('records an update with the changed properties before and after', async () => {
    const { form } = await createForm(t, owner.account.id, { name: 'Old' });
    const before = await count();
    const patched = await request(`${formsUrl()}/${form.id}`, {
      method: 'PATCH',
      apiKey: owner.apiKey,
      json: { name: 'New', redirectUrl: 'https://example.com/thanks' },
    });
    expect(patched.status).toBe(200);
    const events = await eventsSince(t, owner.account.id, before);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      action: 'form.updated',
      targetId: form.id,
      details: {
        name: { before: 'Old', after: 'New' },
        redirectUrl: { before: null, after: 'https://example.com/thanks' },
      },
    });
  });

  it('names a change of one group of settings for that group', async () => {
    const { form } = await createForm(t, owner.account.id);
    const changes: [unknown, string, string][] = [
      [{ retentionDays: 30 }, 'retention.updated', 'retentionDays'],
      [{ spamFilter: { enabled: true } }, 'spam.updated', 'spamFilter'],
      [
        { notifyEmails: ['team@example.com'] },
        'recipients.updated',
        'notifyEmails',
      ],
    ];
    for (const [json, action, property] of changes) {
      const before = await count();
      const answer = await request(`${formsUrl()}/${form.id}`, {
        method: 'PATCH',
        apiKey: owner.apiKey,
        json,
      });
      expect(answer.status).toBe(200);
      const events = await eventsSince(t, owner.account.id, before);
      expect(events.map((event) => event.action)).toEqual([action]);
      expect(Object.keys(events[0].details)).toEqual([property]);
    }
  });

  it('records a CAPTCHA change with its secret only as "changed"', async () => {
    const { form } = await createForm(t, owner.account.id);
    const before = await count();
    const secret = 'captcha-secret-that-must-not-be-stored-0123';
    const answer = await request(`${formsUrl()}/${form.id}`, {
      method: 'PATCH',
      apiKey: owner.apiKey,
      json: {
        captcha: {
          provider: 'turnstile',
          siteKey: '1x00000000000000000000AA',
          secret,
        },
      },
    });
    expect(answer.status).toBe(200);
    const events = await eventsSince(t, owner.account.id, before);
    expect(events).toHaveLength(1);
    expect(events[0].action).toBe('captcha.updated');
    expect(events[0].details.captchaSecret).toBe('changed');
    expect(await rawEvents(t)).not.toContain(secret);
  });

  it('records a key regenerated and a key rotated, never the key', async () => {
    const { form, apiKey } = await createForm(t, owner.account.id);
    let before = await count();
    const regenerated = await request(`${formsUrl()}/${form.id}/api-key`, {
      apiKey: owner.apiKey,
      json: {},
    });
    expect(regenerated.status).toBe(200);
    let events = await eventsSince(t, owner.account.id, before);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      action: 'form_key.regenerated',
      targetId: form.id,
      details: {
        key: 'changed',
        prefix: {
          before: prefixOf(apiKey),
          after: prefixOf(regenerated.body.apiKey),
        },
      },
    });
    before = await count();
    const rotated = await request(`${formsUrl()}/${form.id}/api-key`, {
      apiKey: regenerated.body.apiKey,
      json: { graceSeconds: 3600 },
    });
    expect(rotated.status).toBe(200);
    events = await eventsSince(t, owner.account.id, before);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      action: 'form_key.rotated',
      actorType: 'form-key',
      actorId: form.id,
      actorLabel: prefixOf(regenerated.body.apiKey),
      details: { graceSeconds: 3600 },
    });
    const raw = await rawEvents(t);
    for (const key of [
      apiKey,
      regenerated.body.apiKey,
      rotated.body.apiKey,
      owner.apiKey,
    ]) {
      expect(raw).not.toContain(key);
    }
  });

  it('records a form deleted', async () => {
    const { form } = await createForm(t, owner.account.id, { name: 'Gone' });
    const before = await count();
    const deleted = await request(`${formsUrl()}/${form.id}`, {
      method: 'DELETE',
      apiKey: owner.apiKey,
    });
    expect(deleted.status).toBe(204);
    const events = await eventsSince(t, owner.account.id, before);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      action: 'form.deleted',
      targetId: form.id,
      details: { name: 'Gone' },
    });
  });

  it('records nothing for a refused or invalid change', async () => {
    const { form } = await createForm(t, owner.account.id);
    const viewer = await createAccountApiKey(
      t,
      owner.account.id,
      'viewer',
      'viewer',
    );
    const before = await count();
    const refused = await request(`${formsUrl()}/${form.id}`, {
      method: 'PATCH',
      apiKey: viewer,
      json: { name: 'Nope' },
    });
    expect(refused.status).toBe(403);
    const invalid = await request(`${formsUrl()}/${form.id}`, {
      method: 'PATCH',
      apiKey: owner.apiKey,
      json: { retentionDays: -4 },
    });
    expect(invalid.status).toBe(400);
    const unknown = await request(`${formsUrl()}/nope`, {
      method: 'DELETE',
      apiKey: owner.apiKey,
    });
    expect(unknown.status).toBe(404);
    expect(await count()).toBe(before);
  });

  it('chains the events of an account one after another', async () => {
    const events = await storedEvents(t, owner.account.id);
    expect(events.map((event) => event.seq)).toEqual(
      events.map((_, index) => index + 1),
    );
    expect(new Set(events.map((event) => event.hash)).size).toBe(events.length);
  });
});
