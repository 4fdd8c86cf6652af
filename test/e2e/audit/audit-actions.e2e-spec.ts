// Each listed action beyond forms makes exactly one audit event with its actor, target and
// details: account keys, members, domains, webhooks, submissions (deleted, bulk-deleted,
// exported, released from spam), erasure (an HMAC of the address, never the address) and
// sign-ins; the dashboard records its member as the actor, and shows the log to owners and
// admins only.
import {
  createAccount,
  createMember,
  TEST_PASSWORD,
  type TestAccount,
} from '../../factories/accounts.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import { insertSubmissions } from '../../factories/submissions.js';
import { DashboardClient } from '../../support/dashboard-client.js';
import { request } from '../../support/http.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import {
  eventsSince,
  rawEvents,
  storedEvents,
  type StoredEvent,
} from './audit-support.js';

describe('audit events of keys, members, domains, submissions and sign-ins (e2e)', () => {
  let t: TestApp;
  let owner: TestAccount;
  let contact: TestForm;

  beforeAll(async () => {
    t = await createTestApp({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
    owner = await createAccount(t);
    contact = await createForm(t, owner.account.id);
  });
  afterAll(async () => {
    await t.close();
  });

  const api = (path: string) => `${t.url}/api/v1${path}`;

  /** The events `change` made in the owner's account. */
  async function eventsOf(
    change: () => Promise<unknown>,
  ): Promise<StoredEvent[]> {
    const before = (await storedEvents(t, owner.account.id)).length;
    await change();
    return eventsSince(t, owner.account.id, before);
  }

  async function ok(status: number, answer: Promise<{ status: number }>) {
    expect((await answer).status).toBe(status);
  }

  it('records an account key created and revoked, never the key', async () => {
    let created: { id: string; apiKey: string; prefix: string } | undefined;
    const made = await eventsOf(async () => {
      const answer = await request(api('/account/keys'), {
        apiKey: owner.apiKey,
        json: { name: 'CI', role: 'editor' },
      });
      expect(answer.status).toBe(201);
      created = answer.body;
    });
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({
      action: 'account_key.created',
      actorType: 'account-key',
      targetType: 'account_key',
      targetId: created!.id,
      details: { name: 'CI', role: 'editor', prefix: created!.prefix },
    });
    const revoked = await eventsOf(() =>
      ok(
        204,
        request(api(`/account/keys/${created!.id}`), {
          method: 'DELETE',
          apiKey: owner.apiKey,
        }),
      ),
    );
    expect(revoked.map((e) => [e.action, e.targetId])).toEqual([
      ['account_key.revoked', created!.id],
    ]);
    expect(await rawEvents(t)).not.toContain(created!.apiKey);
  });

  it('records a member’s role changed and a member removed', async () => {
    const member = await createMember(t, owner.account.id, 'viewer');
    const changed = await eventsOf(() =>
      ok(
        200,
        request(api(`/account/members/${member.id}`), {
          method: 'PATCH',
          apiKey: owner.apiKey,
          json: { role: 'editor' },
        }),
      ),
    );
    expect(changed).toHaveLength(1);
    expect(changed[0]).toMatchObject({
      action: 'member.role_changed',
      targetType: 'member',
      targetId: member.id,
      details: {
        email: member.email,
        role: { before: 'viewer', after: 'editor' },
      },
    });
    const removed = await eventsOf(() =>
      ok(
        204,
        request(api(`/account/members/${member.id}`), {
          method: 'DELETE',
          apiKey: owner.apiKey,
        }),
      ),
    );
    expect(removed.map((e) => [e.action, e.targetId])).toEqual([
      ['member.removed', member.id],
    ]);
    // Refused: the owner's membership is not a key's to change.
    const refused = await eventsOf(() =>
      ok(
        403,
        request(api(`/account/members/${owner.user.id}`), {
          method: 'PATCH',
          apiKey: owner.apiKey,
          json: { role: 'admin' },
        }),
      ),
    );
    expect(refused).toEqual([]);
  });

  it('records a domain added and removed', async () => {
    const added = await eventsOf(() =>
      ok(
        201,
        request(api(`/forms/${contact.form.id}/domains`), {
          apiKey: owner.apiKey,
          json: { domain: 'shop.example.com' },
        }),
      ),
    );
    expect(added).toHaveLength(1);
    expect(added[0]).toMatchObject({
      action: 'domain.added',
      targetType: 'domain',
      details: { formId: contact.form.id, domain: 'shop.example.com' },
    });
    const duplicate = await eventsOf(() =>
      ok(
        409,
        request(api(`/forms/${contact.form.id}/domains`), {
          apiKey: owner.apiKey,
          json: { domain: 'shop.example.com' },
        }),
      ),
    );
    expect(duplicate).toEqual([]);
    const removed = await eventsOf(() =>
      ok(
        204,
        request(api(`/forms/${contact.form.id}/domains/shop.example.com`), {
          method: 'DELETE',
          apiKey: owner.apiKey,
        }),
      ),
    );
    expect(removed.map((e) => [e.action, e.targetId])).toEqual([
      ['domain.removed', added[0].targetId],
    ]);
  });

  it('records webhook changes, the secret only as "changed"', async () => {
    let secret = '';
    const events = await eventsOf(async () => {
      const answer = await request(api(`/forms/${contact.form.id}/webhooks`), {
        apiKey: owner.apiKey,
        json: { url: 'http://127.0.0.1:9/hook' },
      });
      expect(answer.status).toBe(201);
      secret = answer.body.secret;
      const rotated = await request(
        api(
          `/forms/${contact.form.id}/webhooks/${answer.body.id}/rotate-secret`,
        ),
        { apiKey: owner.apiKey, json: {} },
      );
      expect(rotated.status).toBe(200);
    });
    expect(events.map((e) => [e.action, e.details.change])).toEqual([
      ['webhook.updated', 'created'],
      ['webhook.updated', 'secret_rotated'],
    ]);
    expect(events[1].details.secret).toBe('changed');
    expect(await rawEvents(t)).not.toContain(secret);
  });

  it('records submissions deleted, bulk-deleted with the count, exported and released', async () => {
    const rows = await insertSubmissions(t, contact.form.id, [
      { createdAt: new Date('2026-01-01T00:00:00Z') },
      { createdAt: new Date('2026-01-02T00:00:00Z') },
      { createdAt: new Date('2026-01-03T00:00:00Z') },
      {
        createdAt: new Date('2026-01-04T00:00:00Z'),
        spamReasons: ['honeypot'],
      },
    ]);
    const base = `/forms/${contact.form.id}/submissions`;
    const one = await eventsOf(() =>
      ok(
        204,
        request(api(`${base}/${rows[0].id}`), {
          method: 'DELETE',
          apiKey: owner.apiKey,
        }),
      ),
    );
    expect(one.map((e) => [e.action, e.targetId])).toEqual([
      ['submission.deleted', rows[0].id],
    ]);
    const missing = await eventsOf(() =>
      ok(
        404,
        request(api(`${base}/${rows[0].id}`), {
          method: 'DELETE',
          apiKey: owner.apiKey,
        }),
      ),
    );
    expect(missing).toEqual([]);
    const released = await eventsOf(() =>
      ok(
        200,
        request(api(`${base}/${rows[3].id}`), {
          method: 'PATCH',
          apiKey: owner.apiKey,
          json: { spam: false },
        }),
      ),
    );
    expect(released.map((e) => [e.action, e.targetId])).toEqual([
      ['submission.released_from_spam', rows[3].id],
    ]);
    const exported = await eventsOf(() =>
      ok(
        200,
        request(api(`${base}/export?format=ndjson`), { apiKey: owner.apiKey }),
      ),
    );
    expect(exported).toHaveLength(1);
    expect(exported[0]).toMatchObject({
      action: 'submissions.exported',
      targetId: contact.form.id,
      details: { format: 'ndjson' },
    });
    const bulk = await eventsOf(() =>
      ok(200, request(api(base), { method: 'DELETE', apiKey: owner.apiKey })),
    );
    expect(bulk).toHaveLength(1);
    expect(bulk[0]).toMatchObject({
      action: 'submissions.deleted',
      targetId: contact.form.id,
      details: { count: 3 },
    });
  });

  it('records an erasure with the count and an HMAC of the address, never the address', async () => {
    const address = 'erase-me-please@example.org';
    await insertSubmissions(t, contact.form.id, [
      { createdAt: new Date('2026-02-01T00:00:00Z'), data: { email: address } },
      { createdAt: new Date('2026-02-02T00:00:00Z'), data: { email: address } },
    ]);
    const dry = await eventsOf(() =>
      ok(
        200,
        request(api('/erasure'), {
          apiKey: owner.apiKey,
          json: { email: address, dryRun: true },
        }),
      ),
    );
    expect(dry).toEqual([]);
    const events = await eventsOf(() =>
      ok(
        200,
        request(api('/erasure'), {
          apiKey: owner.apiKey,
          json: { email: address },
        }),
      ),
    );
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      action: 'erasure.run',
      details: { count: 2, forms: 1 },
    });
    expect(events[0].details.addressHmac).toMatch(/^[0-9a-f]{64}$/);
    expect(await rawEvents(t)).not.toContain(address);
  });

  it('records a data-subject export with an HMAC of the address, never the address', async () => {
    const address = 'export-me-please@example.org';
    await insertSubmissions(t, contact.form.id, [
      { createdAt: new Date('2026-02-03T00:00:00Z'), data: { email: address } },
    ]);
    const events = await eventsOf(async () => {
      const res = await request(
        api(`/erasure/export?email=${encodeURIComponent(address)}`),
        { apiKey: owner.apiKey },
      );
      expect(res.status).toBe(200);
      expect(res.text).toContain(address);
    });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      action: 'submissions.exported',
      actorType: 'account-key',
      targetId: owner.account.id,
      details: { format: 'ndjson', dataSubject: true },
    });
    expect(events[0].details.addressHmac).toMatch(/^[0-9a-f]{64}$/);
    expect(await rawEvents(t)).not.toContain(address);
  });

  it('records sign-ins, failed and succeeded, in the accounts of the user', async () => {
    const client = new DashboardClient(t.url);
    const failed = await eventsOf(async () => {
      const page = await client.logIn(owner.user.email, 'not-the-password-1');
      expect(page.status).toBe(401);
    });
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({
      action: 'sign_in.failed',
      actorType: 'member',
      actorId: owner.user.id,
      actorLabel: owner.user.email,
    });
    expect(await rawEvents(t)).not.toContain('not-the-password-1');
    const succeeded = await eventsOf(async () => {
      expect((await client.logIn(owner.user.email, TEST_PASSWORD)).status).toBe(
        303,
      );
    });
    expect(succeeded.map((e) => e.action)).toEqual(['sign_in.succeeded']);
  });

  it('records a dashboard change with the member as its actor, and shows the log to owners only', async () => {
    const client = new DashboardClient(t.url);
    client.headers['user-agent'] = 'dashboard-browser/1';
    expect((await client.logIn(owner.user.email)).status).toBe(303);
    const events = await eventsOf(async () => {
      const page = await client.post(
        `/dashboard/forms/${contact.form.id}/settings/after-submit`,
        { redirectUrl: '', successMessage: 'Thanks a lot' },
        { from: `/dashboard/forms/${contact.form.id}/settings` },
      );
      expect(page.status).toBe(303);
    });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      action: 'form.updated',
      actorType: 'member',
      actorId: owner.user.id,
      actorLabel: owner.user.email,
      userAgent: 'dashboard-browser/1',
      details: { successMessage: { before: null, after: 'Thanks a lot' } },
    });
    const page = await client.get('/dashboard/account/audit?action=form.');
    expect(page.status).toBe(200);
    expect(page.html).toContain(`data-event="${events[0].id}"`);
    expect(page.html).toContain('href="/dashboard/account/audit"');
    const bad = await client.get('/dashboard/account/audit?from=someday');
    expect(bad.status).toBe(400);

    const editor = await createMember(t, owner.account.id, 'editor');
    const editorClient = new DashboardClient(t.url);
    expect((await editorClient.logIn(editor.email)).status).toBe(303);
    const refused = await editorClient.get('/dashboard/account/audit');
    expect(refused.status).toBe(403);
    expect(refused.headers.get('content-type')).toContain('text/html');
    expect(refused.html).not.toContain('data-event=');
    const forms = await editorClient.get('/dashboard/forms');
    expect(forms.html).not.toContain('href="/dashboard/account/audit"');
  });
});
