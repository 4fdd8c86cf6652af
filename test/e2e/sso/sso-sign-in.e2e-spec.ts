// Single sign-on through a real OpenID provider on loopback (oidc-provider): the settings
// page, JIT membership with the account's default role, a second sign-in reusing the user,
// and "require SSO" refusing a member's password but not the owner's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Membership } from '../../../src/accounts/membership.entity.js';
import { AccountsService } from '../../../src/accounts/accounts.service.js';
import { User } from '../../../src/accounts/user.entity.js';
import { DashboardSession } from '../../../src/dashboard/session/dashboard-session.entity.js';
import { SsoSettings } from '../../../src/sso/sso-settings.entity.js';
import { createMember, TEST_PASSWORD } from '../../factories/accounts.js';
import { DashboardClient, textOf } from '../../support/dashboard-client.js';
import {
  addDomain,
  CALLBACK_URL,
  ownerClient,
  saveSettings,
  sendCallback,
  ssoAccount,
  startSsoWorld,
  throughProvider,
  type SsoWorld,
} from './sso-helpers.js';

let world: SsoWorld;
/** Tests that hash several passwords (scrypt, ~128 MiB each): slow on a busy machine. */
const SCRYPT_HEAVY_MS = 90_000;

beforeAll(async () => {
  world = await startSsoWorld();
});

afterAll(async () => {
  await world?.close();
});

async function storedUser(email: string) {
  return world.t.dataSource.getRepository(User).findOne({
    where: { email },
    select: {
      id: true,
      email: true,
      passwordHash: true,
      emailVerifiedAt: true,
    },
  });
}

describe('the SSO settings page', () => {
  it('shows owners the callback address to register, and refuses members without security.manage', async () => {
    const { owner, client } = await ownerClient(world, 'owner@settings.test');
    const page = await client.get('/dashboard/account/sso');
    expect(page.status).toBe(200);
    expect(page.html).toContain(CALLBACK_URL);
    expect(page.html).toContain('openid email profile');

    const editor = await createMember(world.t, owner.account.id, 'editor');
    const editorClient = new DashboardClient(world.t.url);
    expect((await editorClient.logIn(editor.email)).status).toBe(303);
    const refused = await editorClient.get('/dashboard/account/sso');
    expect(refused.status).toBe(403);
    expect(textOf(refused.html)).toContain('manage security settings');
  });

  it('refuses a plain-http issuer that is not loopback, a missing secret and a role beyond developer', async () => {
    const { owner, client } = await ownerClient(
      world,
      'owner@badsettings.test',
    );
    const page = await saveSettings(client, {
      issuerUrl: 'http://idp.example.com',
      clientId: 'formgate',
      clientSecret: '',
      defaultRole: 'admin',
    });
    expect(page.status).toBe(400);
    const text = textOf(page.html);
    expect(text).toContain('Issuer URL must use https://');
    expect(text).toContain('Client secret is required');
    expect(text).toContain(
      'Role for new members must be viewer, editor or developer',
    );
    expect(
      await world.t.dataSource
        .getRepository(SsoSettings)
        .countBy({ accountId: owner.account.id }),
    ).toBe(0);
  });

  it('refuses "require SSO" until a domain is verified by DNS, and shows the TXT record to publish', async () => {
    const { client } = await ownerClient(world, 'owner@unproven.test');
    const { txtValue } = await addDomain(client, 'unproven.test');
    const page = await client.get('/dashboard/account/sso');
    expect(page.html).toContain('Not verified');
    expect(page.html).toContain(txtValue);
    expect(page.html).toContain('_formgate.unproven.test');

    const refused = await saveSettings(client, {
      issuerUrl: world.idp.issuer,
      clientId: world.idp.clientId,
      clientSecret: world.idp.clientSecret,
      defaultRole: 'editor',
      requireSso: 'on',
    });
    expect(refused.status).toBe(400);
    expect(textOf(refused.html)).toContain(
      'Require SSO needs a verified SSO domain',
    );
    // A verify without the record stays pending and says why.
    const id = /domains\/([^/]+)\/verify/.exec(page.html)![1];
    const verify = await client.post(
      `/dashboard/account/sso/domains/${id}/verify`,
      {},
      { from: '/dashboard/account/sso' },
    );
    expect(verify.location).toBe(
      '/dashboard/account/sso?done=domain-not-verified',
    );
    expect(textOf((await client.get('/dashboard/account/sso')).html)).toContain(
      'No TXT record formgate-verification=',
    );
  });

  it('answers 404 for another account’s SSO domain', async () => {
    const { client: first } = await ownerClient(world, 'owner@first.test');
    const { id } = await addDomain(first, 'first.test');
    const { client: second } = await ownerClient(world, 'owner@second.test');
    const page = await second.post(
      `/dashboard/account/sso/domains/${id}/remove`,
      {},
      { from: '/dashboard/account/sso' },
    );
    expect(page.status).toBe(404);
  });
});

describe('signing in with SSO', () => {
  it('joins a person the first time with the default role, then reuses the user', async () => {
    const { owner } = await ssoAccount(world, 'acme.test', {
      defaultRole: 'viewer',
    });
    const email = 'ann@acme.test';
    const first = await throughProvider(world, email);
    const signedIn = await sendCallback(first.browser, first.callback);
    expect(signedIn.status, signedIn.html).toBe(303);
    expect(signedIn.location).toBe('/dashboard/forms?done=joined-by-sso');
    const forms = await first.browser.get('/dashboard/forms');
    expect(forms.status).toBe(200);
    expect(forms.html).toContain(email);

    const user = await storedUser(email);
    expect(user?.passwordHash).toBeNull();
    expect(user?.emailVerifiedAt).not.toBeNull();
    const memberships = await world.t.dataSource
      .getRepository(Membership)
      .findBy({ userId: user!.id });
    expect(memberships).toEqual([
      expect.objectContaining({ accountId: owner.account.id, role: 'viewer' }),
    ]);

    const sessions = await world.t.dataSource
      .getRepository(DashboardSession)
      .findBy({ userId: user!.id });
    expect(sessions.map((session) => session.method)).toEqual(['sso']);

    const second = await throughProvider(world, 'Ann@ACME.test', {
      email,
      emailVerified: true,
    });
    const again = await sendCallback(second.browser, second.callback);
    expect(again.status).toBe(303);
    expect(again.location).toBe('/dashboard/forms');
    expect(
      await world.t.dataSource.getRepository(User).countBy({ email }),
    ).toBe(1);
    expect(
      await world.t.dataSource
        .getRepository(Membership)
        .countBy({ userId: user!.id }),
    ).toBe(1);
  });

  it('gives new members the editor role unless the owner chose another', async () => {
    await ssoAccount(world, 'editors.test');
    const { browser, callback } = await throughProvider(
      world,
      'eve@editors.test',
    );
    expect((await sendCallback(browser, callback)).status).toBe(303);
    const user = await storedUser('eve@editors.test');
    const [membership] = await world.t.dataSource
      .getRepository(Membership)
      .findBy({ userId: user!.id });
    expect(membership.role).toBe('editor');
  });
});

describe('require SSO', () => {
  it(
    'refuses the password of a member in the domain, not the owner’s nor an outsider’s',
    async () => {
      const { owner } = await ssoAccount(world, 'strict.test', {
        requireSso: 'on',
      });
      const accounts = world.t.app.get(AccountsService);
      const member = await accounts.createUser(
        'bob@strict.test',
        TEST_PASSWORD,
        {
          verified: true,
        },
      );
      await createMember(world.t, owner.account.id, 'developer', member);
      const outsider = await createMember(world.t, owner.account.id, 'editor');

      const memberLogin = await new DashboardClient(world.t.url).logIn(
        'bob@strict.test',
      );
      expect(memberLogin.status).toBe(403);
      expect(textOf(memberLogin.html)).toContain('requires single sign-on');
      expect(memberLogin.html).toContain(
        'href="/dashboard/sso?email=bob%40strict.test"',
      );
      expect(memberLogin.setCookies.join()).not.toContain('dashboard_session=');

      expect(
        (await new DashboardClient(world.t.url).logIn(owner.user.email)).status,
      ).toBe(303);
      expect(
        (await new DashboardClient(world.t.url).logIn(outsider.email)).status,
      ).toBe(303);

      // The member still gets in, through SSO.
      const { browser, callback } = await throughProvider(
        world,
        'bob@strict.test',
      );
      expect((await sendCallback(browser, callback)).status).toBe(303);
      expect((await browser.get('/dashboard/forms')).status).toBe(200);
    },
    SCRYPT_HEAVY_MS,
  );
});

describe('turning require SSO on', () => {
  it(
    'ends the reach of password sessions of members in the domain, not the owner’s',
    async () => {
      const { owner, client: ownerSession } = await ssoAccount(
        world,
        'later.test',
      );
      const member = await world.t.app
        .get(AccountsService)
        .createUser('kim@later.test', TEST_PASSWORD, { verified: true });
      await createMember(world.t, owner.account.id, 'editor', member);
      const memberSession = new DashboardClient(world.t.url);
      expect((await memberSession.logIn('kim@later.test')).status).toBe(303);
      expect((await memberSession.get('/dashboard/forms')).status).toBe(200);

      const saved = await saveSettings(ownerSession, {
        issuerUrl: world.idp.issuer,
        clientId: world.idp.clientId,
        clientSecret: '',
        defaultRole: 'editor',
        requireSso: 'on',
      });
      expect(saved.status).toBe(303);
      const refused = await memberSession.get('/dashboard/forms');
      expect(refused.status).toBe(403);
      expect(textOf(refused.html)).toContain('requires single sign-on');
      expect((await ownerSession.get('/dashboard/forms')).status).toBe(200);
      // Logging out stays possible.
      const out = await memberSession.post(
        '/dashboard/logout',
        {},
        { from: '/dashboard/forms' },
      );
      expect(out.location).toBe('/dashboard/login?done=signed-out');
    },
    SCRYPT_HEAVY_MS,
  );
});

describe('joining through SSO within MAX_MEMBERS_PER_ACCOUNT', () => {
  let full: SsoWorld;

  beforeAll(async () => {
    full = await startSsoWorld({ MAX_MEMBERS_PER_ACCOUNT: '1' });
  });

  afterAll(async () => {
    await full?.close();
  });

  it('refuses a new member with a 409 page once the account is full, and lets its members in', async () => {
    await ssoAccount(full, 'full.test');
    const { browser, callback } = await throughProvider(full, 'new@full.test');
    const refused = await sendCallback(browser, callback);
    expect(refused.status).toBe(409);
    expect(textOf(refused.html)).toContain('as many members as it may have');
    expect(refused.setCookies.join()).not.toMatch(/dashboard_session=[^;]/);

    // The owner, already a member, still signs in through SSO.
    const owner = await throughProvider(full, 'owner@full.test');
    expect((await sendCallback(owner.browser, owner.callback)).status).toBe(
      303,
    );
  });
});
