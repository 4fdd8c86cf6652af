// The features that landed beside the audit log record their changes in it: chat channels
// (API and dashboard), the autoresponder, SSO settings and domains, joining by SSO and a
// refused SSO sign-in, the second-factor policy, and a member's second factors (added and
// removed in the dashboard, reset by the operator). Each change is exactly one event with
// its actor, target and details, never a secret; a refused change is none.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUlid } from '../../../src/common/values/ulid.js';
import { Passkey } from '../../../src/second-factors/passkey.entity.js';
import { SecondFactorsService } from '../../../src/second-factors/second-factors.service.js';
import {
  createAccount,
  createMember,
  TEST_PASSWORD,
  type TestAccount,
} from '../../factories/accounts.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import {
  startChatReceiver,
  type ChatReceiver,
} from '../../support/chat-receiver.js';
import type { DashboardClient } from '../../support/dashboard-client.js';
import { request } from '../../support/http.js';
import { SECURITY, setUpTotp } from '../../support/second-factors.js';
import {
  addDomain,
  saveSettings,
  sendCallback,
  ssoAccount,
  throughProvider,
  startSsoWorld,
  type SsoWorld,
} from '../sso/sso-helpers.js';
import {
  eventsSince,
  rawEvents,
  storedEvents,
  type StoredEvent,
} from './audit-support.js';

const DOMAIN = 'audited-sso.test';

describe('audit events of chat channels, SSO and second factors (e2e)', () => {
  let world: SsoWorld;
  let chat: ChatReceiver;
  let owner: TestAccount;
  let client: DashboardClient;
  let form: TestForm;

  beforeAll(async () => {
    chat = await startChatReceiver();
    world = await startSsoWorld(chat.env());
    ({ owner, client } = await ssoAccount(world, DOMAIN));
    form = await createForm(world.t, owner.account.id);
  });
  afterAll(async () => {
    await world?.close();
    await chat?.close();
  });

  const api = (path: string) =>
    `${world.t.url}/api/v1/forms/${form.form.id}${path}`;

  /** The events `change` made in the owner's account. */
  async function eventsOf(
    change: () => Promise<unknown>,
    accountId = owner.account.id,
  ): Promise<StoredEvent[]> {
    const before = (await storedEvents(world.t, accountId)).length;
    await change();
    return eventsSince(world.t, accountId, before);
  }

  async function status(expected: number, answer: Promise<{ status: number }>) {
    expect((await answer).status).toBe(expected);
  }

  it('records a chat channel created, changed and deleted through the API, the URL only as changed', async () => {
    let id = '';
    const created = await eventsOf(async () => {
      const answer = await request(api('/chat-channels'), {
        apiKey: form.apiKey,
        json: { kind: 'slack', name: '#sales', url: chat.urls.slack },
      });
      expect(answer.status).toBe(201);
      id = answer.body.id as string;
    });
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({
      action: 'chat_channel.created',
      actorType: 'form-key',
      actorId: form.form.id,
      targetType: 'chat_channel',
      targetId: id,
      details: {
        formId: form.form.id,
        kind: 'slack',
        name: '#sales',
        enabled: true,
      },
    });
    const refused = await eventsOf(() =>
      status(
        400,
        request(api(`/chat-channels/${id}`), {
          method: 'PATCH',
          apiKey: form.apiKey,
          json: { url: 'https://evil.example/hook' },
        }),
      ),
    );
    expect(refused).toEqual([]);
    const newUrl = `${chat.urls.slack}?again=1`;
    const changed = await eventsOf(() =>
      status(
        200,
        request(api(`/chat-channels/${id}`), {
          method: 'PATCH',
          apiKey: form.apiKey,
          json: { name: '#leads', enabled: false, url: newUrl },
        }),
      ),
    );
    expect(changed).toHaveLength(1);
    expect(changed[0]).toMatchObject({
      action: 'chat_channel.updated',
      targetId: id,
      details: {
        kind: 'slack',
        name: { before: '#sales', after: '#leads' },
        enabled: { before: true, after: false },
        url: 'changed',
      },
    });
    const same = await eventsOf(() =>
      status(
        200,
        request(api(`/chat-channels/${id}`), {
          method: 'PATCH',
          apiKey: form.apiKey,
          json: { name: '#leads' },
        }),
      ),
    );
    expect(same).toEqual([]);
    const deleted = await eventsOf(() =>
      status(
        204,
        request(api(`/chat-channels/${id}`), {
          method: 'DELETE',
          apiKey: form.apiKey,
        }),
      ),
    );
    expect(deleted.map((e) => [e.action, e.targetId, e.details])).toEqual([
      [
        'chat_channel.deleted',
        id,
        { formId: form.form.id, kind: 'slack', name: '#leads', enabled: false },
      ],
    ]);
    const raw = await rawEvents(world.t);
    expect(raw).not.toContain(chat.urls.slack);
  });

  it('records a chat channel added and deleted in the dashboard with the member as actor', async () => {
    const base = `/dashboard/forms/${form.form.id}/notifications`;
    const added = await eventsOf(async () => {
      const page = await client.post(
        `${base}/chat-channels`,
        { kind: 'discord', chatName: 'Team', chatUrl: chat.urls.discord },
        { from: base },
      );
      expect(page.status, page.html).toBe(303);
    });
    expect(added).toHaveLength(1);
    expect(added[0]).toMatchObject({
      action: 'chat_channel.created',
      actorType: 'member',
      actorId: owner.user.id,
      actorLabel: owner.user.email,
      details: { kind: 'discord', name: 'Team', enabled: true },
    });
    const id = added[0].targetId!;
    const deleted = await eventsOf(async () => {
      const page = await client.post(
        `${base}/chat-channels/${id}/delete`,
        {},
        { from: base },
      );
      expect(page.status).toBe(303);
    });
    expect(deleted.map((e) => [e.action, e.actorId, e.targetId])).toEqual([
      ['chat_channel.deleted', owner.user.id, id],
    ]);
    expect(await rawEvents(world.t)).not.toContain(chat.urls.discord);
  });

  it('records an autoresponder change as autoresponder.updated', async () => {
    await status(
      200,
      request(api(''), {
        method: 'PATCH',
        apiKey: form.apiKey,
        json: {
          captcha: {
            provider: 'turnstile',
            siteKey: 'site',
            secret: 'secret-turnstile',
            graceUntil: null,
          },
        },
      }),
    );
    const autoresponse = {
      enabled: true,
      emailField: 'email',
      subject: 'We got your message',
      text: 'Thank you for writing.',
    };
    const events = await eventsOf(() =>
      status(
        200,
        request(api(''), {
          method: 'PATCH',
          apiKey: form.apiKey,
          json: { autoresponse },
        }),
      ),
    );
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      action: 'autoresponder.updated',
      targetType: 'form',
      targetId: form.form.id,
      details: {
        autoresponse: { before: null, after: { ...autoresponse } },
      },
    });
  });

  it('records SSO settings saved, the client secret only as changed, and domains added and removed', async () => {
    const secret = 'a-new-client-secret-123';
    const saved = await eventsOf(async () => {
      const page = await saveSettings(client, {
        issuerUrl: world.idp.issuer,
        clientId: world.idp.clientId,
        clientSecret: secret,
        defaultRole: 'viewer',
      });
      expect(page.status, page.html).toBe(303);
    });
    expect(saved).toHaveLength(1);
    expect(saved[0]).toMatchObject({
      action: 'sso.updated',
      actorType: 'member',
      actorId: owner.user.id,
      targetType: 'account',
      targetId: owner.account.id,
      details: {
        change: 'updated',
        defaultRole: { before: 'editor', after: 'viewer' },
        clientSecret: 'changed',
      },
    });
    expect(Object.keys(saved[0].details).sort()).toEqual([
      'change',
      'clientSecret',
      'defaultRole',
    ]);
    expect(await rawEvents(world.t)).not.toContain(secret);
    // Refused (no verified domain is needed here, but a bad issuer is): no event.
    const refused = await eventsOf(async () => {
      const page = await saveSettings(client, {
        issuerUrl: 'not a url',
        clientId: world.idp.clientId,
        clientSecret: '',
        defaultRole: 'viewer',
      });
      expect(page.status).toBe(400);
    });
    expect(refused).toEqual([]);
    // Back to the role the next test joins with, and the provider's secret.
    await saveSettings(client, {
      issuerUrl: world.idp.issuer,
      clientId: world.idp.clientId,
      clientSecret: world.idp.clientSecret,
      defaultRole: 'editor',
    });
    let domainId = '';
    const added = await eventsOf(async () => {
      domainId = (await addDomain(client, 'other-audited.test')).id;
    });
    expect(added.map((e) => [e.action, e.details])).toEqual([
      ['sso.updated', { domainAdded: 'other-audited.test' }],
    ]);
    const removed = await eventsOf(async () => {
      const page = await client.post(
        `/dashboard/account/sso/domains/${domainId}/remove`,
        {},
        { from: '/dashboard/account/sso' },
      );
      expect(page.status).toBe(303);
    });
    expect(removed.map((e) => [e.action, e.details])).toEqual([
      ['sso.updated', { domainRemoved: 'other-audited.test' }],
    ]);
  });

  it('records a person joining by SSO, their sign-in, and a refused SSO sign-in of a known user', async () => {
    const email = `newcomer@${DOMAIN}`;
    const joined = await eventsOf(async () => {
      const { browser, callback } = await throughProvider(world, email);
      const page = await sendCallback(browser, callback);
      expect(page.status, page.html).toBe(303);
    });
    expect(joined.map((e) => e.action)).toEqual([
      'member.joined',
      'sign_in.succeeded',
    ]);
    expect(joined[0]).toMatchObject({
      actorType: 'member',
      actorLabel: email,
      targetType: 'member',
      details: { email, role: 'editor', via: 'sso' },
    });
    expect(joined[0].targetId).toBe(joined[0].actorId);
    expect(joined[1]).toMatchObject({
      actorLabel: email,
      details: { method: 'sso' },
    });
    const member = await createMember(world.t, owner.account.id, 'viewer');
    const refused = await eventsOf(async () => {
      const { browser, callback } = await throughProvider(
        world,
        `someone@${DOMAIN}`,
        { email: member.email, emailVerified: true },
      );
      const page = await sendCallback(browser, callback);
      expect(page.status).toBe(403);
    });
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({
      action: 'sign_in.failed',
      actorId: member.id,
      targetId: member.id,
      details: { reason: 'sso: foreign-domain' },
    });
  });

  it('records the second-factor policy changed, before and after; saving it unchanged is none', async () => {
    const policy = (on: boolean) =>
      client.post(
        `${SECURITY}/policy`,
        on ? { requireSecondFactor: '1' } : {},
        { from: SECURITY },
      );
    // With a factor, so that the policy turned on leaves the owner's session whole.
    await setUpTotp(client);
    const off = await eventsOf(async () => {
      expect((await policy(false)).status).toBe(303);
    });
    expect(off).toEqual([]);
    const on = await eventsOf(async () => {
      expect((await policy(true)).status).toBe(303);
    });
    expect(on).toHaveLength(1);
    expect(on[0]).toMatchObject({
      action: 'security_policy.updated',
      actorId: owner.user.id,
      targetType: 'account',
      targetId: owner.account.id,
      details: { requireSecondFactor: { before: false, after: true } },
    });
    const back = await eventsOf(async () => {
      expect((await policy(false)).status).toBe(303);
    });
    expect(back.map((e) => e.details)).toEqual([
      { requireSecondFactor: { before: true, after: false } },
    ]);
    await world.t.app.get(SecondFactorsService).resetAll(owner.user.id);
  });

  it('records a member’s TOTP added and removed, in every account they belong to, and the operator’s reset', async () => {
    // The owner is a member of a second account too: the event is in both.
    const second = await createAccount(world.t);
    await createMember(world.t, second.account.id, 'viewer', owner.user);
    const inSecond = (await storedEvents(world.t, second.account.id)).length;
    let secret = '';
    let recovery: string[] = [];
    const added = await eventsOf(async () => {
      ({ secret, recoveryCodes: recovery } = await setUpTotp(client));
    });
    expect(added).toHaveLength(1);
    const alsoThere = await eventsSince(world.t, second.account.id, inSecond);
    expect(alsoThere.map((e) => [e.action, e.targetId])).toEqual([
      ['member.second_factor_added', owner.user.id],
    ]);
    expect(added[0]).toMatchObject({
      action: 'member.second_factor_added',
      actorType: 'member',
      actorId: owner.user.id,
      targetType: 'member',
      targetId: owner.user.id,
      details: { kind: 'totp' },
    });
    expect(await rawEvents(world.t)).not.toContain(secret);
    const wrong = await eventsOf(async () => {
      const page = await client.post(
        `${SECURITY}/totp/disable`,
        { password: 'wrong-password-1', code: recovery[0] },
        { from: SECURITY },
      );
      expect(page.status).toBe(400);
    });
    expect(wrong).toEqual([]);
    const removed = await eventsOf(async () => {
      const page = await client.post(
        `${SECURITY}/totp/disable`,
        { password: TEST_PASSWORD, code: recovery[1] },
        { from: SECURITY },
      );
      expect(page.status, page.html).toBe(303);
    });
    expect(removed.map((e) => [e.action, e.actorId, e.details])).toEqual([
      ['member.second_factor_removed', owner.user.id, { kind: 'totp' }],
    ]);
    // The operator's reset (users:reset-2fa) of a user with a factor: actor cli.
    await setUpTotp(client);
    const reset = await eventsOf(() =>
      world.t.app.get(SecondFactorsService).resetAll(owner.user.id),
    );
    expect(reset).toHaveLength(1);
    expect(reset[0]).toMatchObject({
      action: 'member.second_factor_removed',
      actorType: 'cli',
      actorId: null,
      ip: null,
      targetId: owner.user.id,
      details: { kind: 'totp', via: 'reset', passkeys: 0 },
    });
    const nothing = await eventsOf(() =>
      world.t.app.get(SecondFactorsService).resetAll(owner.user.id),
    );
    expect(nothing).toEqual([]);
  });

  it('records a passkey removed by its member; another one’s (404) is none', async () => {
    const id = newUlid();
    await world.t.dataSource.getRepository(Passkey).insert({
      id,
      userId: owner.user.id,
      credentialId: `credential-${id}`,
      publicKey: 'cHVibGljLWtleQ',
      counter: 0,
      transports: 'internal',
      name: 'Phone',
      createdAt: new Date(),
      lastUsedAt: null,
    });
    const unknown = await eventsOf(async () => {
      const page = await client.post(
        `${SECURITY}/passkeys/${newUlid()}/remove`,
        {},
        { from: SECURITY },
      );
      expect(page.status).toBe(404);
    });
    expect(unknown).toEqual([]);
    const removed = await eventsOf(async () => {
      const page = await client.post(
        `${SECURITY}/passkeys/${id}/remove`,
        {},
        { from: SECURITY },
      );
      expect(page.status).toBe(303);
    });
    expect(removed).toHaveLength(1);
    expect(removed[0]).toMatchObject({
      action: 'member.second_factor_removed',
      actorType: 'member',
      actorId: owner.user.id,
      targetType: 'member',
      targetId: owner.user.id,
      details: { kind: 'passkey', passkeyId: id },
    });
  });
});
