// Every refusal of an SSO sign-in is a page with a 4xx status that says what went wrong,
// never a 500: bad or missing state, a replayed answer, wrong issuer, wrong audience, bad
// nonce, an expired or wrongly signed ID token, an unverified email, a foreign domain, an
// SSO domain not DNS-verified, an unreachable provider. And the client secret is never in
// clear in the database, a page or a log line.
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { textOf, type Page } from '../../support/dashboard-client.js';
import {
  addDomain,
  ownerClient,
  proveDomain,
  saveSettings,
  sendCallback,
  ssoAccount,
  startSso,
  startSsoWorld,
  throughProvider,
  type SsoWorld,
} from './sso-helpers.js';

let world: SsoWorld;
const DOMAIN = 'refusals.test';

beforeAll(async () => {
  world = await startSsoWorld();
  await ssoAccount(world, DOMAIN);
});

afterEach(() => {
  world.idp.tamperIdToken(null);
});

afterAll(async () => {
  await world?.close();
});

/** A refusal page: its status, HTML, the sentence, and no session cookie. */
function expectRefusal(page: Page, status: number, sentence: string): void {
  expect(page.status, textOf(page.html)).toBe(status);
  expect(page.headers.get('content-type')).toContain('text/html');
  expect(textOf(page.html)).toContain(sentence);
  expect(page.setCookies.join()).not.toMatch(/dashboard_session=[^;]/);
}

describe('the callback', () => {
  it('refuses a tampered state, a missing one, and a replay of a used answer', async () => {
    const { browser, callback } = await throughProvider(world, `a@${DOMAIN}`);
    const tampered = new URL(callback);
    tampered.searchParams.set('state', 'not-the-state');
    expectRefusal(
      await sendCallback(browser, tampered),
      400,
      'its state is missing',
    );

    const other = await throughProvider(world, `b@${DOMAIN}`);
    const missing = new URL(other.callback);
    missing.searchParams.delete('state');
    expectRefusal(
      await sendCallback(other.browser, missing),
      400,
      'its state is missing',
    );

    const third = await throughProvider(world, `c@${DOMAIN}`);
    expect((await sendCallback(third.browser, third.callback)).status).toBe(
      303,
    );
    // Same browser state cookie is gone; a copy of the cookie replays the answer: refused.
    const replay = await throughProvider(world, `d@${DOMAIN}`);
    const state = replay.callback.searchParams.get('state')!;
    expect((await sendCallback(replay.browser, replay.callback)).status).toBe(
      303,
    );
    replay.browser.cookies.set('dashboard_sso', state);
    expectRefusal(
      await sendCallback(replay.browser, replay.callback),
      400,
      'already used',
    );
  });

  it('refuses an answer sent to another browser than the one that started', async () => {
    const { callback } = await throughProvider(world, `e@${DOMAIN}`);
    const { browser: stranger } = await startSso(world, `f@${DOMAIN}`);
    expectRefusal(
      await sendCallback(stranger, callback),
      400,
      'its state is missing',
    );
  });

  it('refuses an answer whose iss parameter names another issuer', async () => {
    const { browser, callback } = await throughProvider(world, `g@${DOMAIN}`);
    const tampered = new URL(callback);
    tampered.searchParams.set('iss', 'https://impostor.example');
    expectRefusal(
      await sendCallback(browser, tampered),
      403,
      'not the issuer configured',
    );
  });

  it('refuses the provider’s error answer with a page', async () => {
    const { browser, callback } = await throughProvider(world, `h@${DOMAIN}`);
    const denied = new URL(callback);
    denied.searchParams.delete('code');
    denied.searchParams.set('error', 'access_denied');
    expectRefusal(
      await sendCallback(browser, denied),
      403,
      'did not complete the sign-in',
    );
  });
});

describe('the ID token', () => {
  const cases: Array<{
    what: string;
    tamper: (claims: Record<string, unknown>) => Record<string, unknown>;
    foreignKey?: boolean;
    sentence: string;
  }> = [
    {
      what: 'another issuer',
      tamper: (claims) => ({ ...claims, iss: 'https://impostor.example' }),
      sentence: 'not the issuer configured',
    },
    {
      what: 'another audience',
      tamper: (claims) => ({ ...claims, aud: 'another-application' }),
      sentence: 'issued the ID token to another application',
    },
    {
      what: 'another nonce',
      tamper: (claims) => ({ ...claims, nonce: 'a-nonce-of-another-sign-in' }),
      sentence: 'does not carry the nonce of this sign-in',
    },
    {
      what: 'an expiry in the past',
      tamper: (claims) => {
        const now = Math.floor(Date.now() / 1000);
        return { ...claims, iat: now - 7200, exp: now - 3600 };
      },
      sentence: 'has expired',
    },
    {
      what: 'a signature by a key the provider does not publish',
      tamper: (claims) => claims,
      foreignKey: true,
      sentence: 'signature does not match',
    },
  ];

  for (const { what, tamper, foreignKey, sentence } of cases) {
    it(`refuses one with ${what}`, async () => {
      world.idp.tamperIdToken(tamper, { foreignKey });
      const { browser, callback } = await throughProvider(
        world,
        `token@${DOMAIN}`,
      );
      expectRefusal(await sendCallback(browser, callback), 403, sentence);
    });
  }

  it('refuses an address the provider has not verified', async () => {
    const { browser, callback } = await throughProvider(
      world,
      `unverified@${DOMAIN}`,
      {
        email: `unverified@${DOMAIN}`,
        emailVerified: false,
      },
    );
    expectRefusal(
      await sendCallback(browser, callback),
      403,
      'does not say your email address is verified',
    );
  });

  it('refuses an address outside the account’s SSO domains', async () => {
    const { browser, callback } = await throughProvider(
      world,
      `ann@${DOMAIN}`,
      {
        email: 'ann@elsewhere.test',
        emailVerified: true,
      },
    );
    expectRefusal(
      await sendCallback(browser, callback),
      403,
      'outside this account’s SSO domains',
    );
  });
});

describe('starting a sign-in', () => {
  it('refuses a domain whose TXT record is not verified, and one no account uses', async () => {
    const { client } = await ownerClient(world, 'owner@pending.test');
    await addDomain(client, 'pending.test');
    expect(
      (
        await saveSettings(client, {
          issuerUrl: world.idp.issuer,
          clientId: world.idp.clientId,
          clientSecret: world.idp.clientSecret,
          defaultRole: 'editor',
        })
      ).status,
    ).toBe(303);
    const pending = await startSso(world, 'someone@pending.test');
    expectRefusal(pending.start, 403, 'has not been verified yet');

    const nobody = await startSso(world, 'someone@nobody.test');
    expectRefusal(nobody.start, 404, 'No account uses single sign-on');

    const bad = await startSso(world, 'not an address');
    expectRefusal(bad.start, 400, 'Enter your work email address');
  });

  it('refuses with a page when the provider cannot be reached', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) =>
      closed.listen(0, '127.0.0.1', resolve),
    );
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));

    const { client } = await ownerClient(world, 'owner@offline.test');
    await proveDomain(world, client, 'offline.test');
    expect(
      (
        await saveSettings(client, {
          issuerUrl: `http://127.0.0.1:${port}`,
          clientId: 'formgate',
          clientSecret: 'whatever-secret',
          defaultRole: 'editor',
        })
      ).status,
    ).toBe(303);
    const { start } = await startSso(world, 'someone@offline.test');
    expectRefusal(start, 424, 'could not be reached');
  });
});

describe('the client secret', () => {
  it('is never in clear in the database, the settings page or the logs', async () => {
    const secret = 'a-very-distinctive-client-secret-4242';
    const { client } = await ownerClient(world, 'owner@secret.test');
    await proveDomain(world, client, 'secret.test');
    const saved = await saveSettings(client, {
      issuerUrl: world.idp.issuer,
      clientId: world.idp.clientId,
      clientSecret: secret,
      defaultRole: 'editor',
    });
    expect(saved.status).toBe(303);
    // A refused save does not echo it either.
    const refused = await saveSettings(client, {
      issuerUrl: 'ftp://nope',
      clientId: world.idp.clientId,
      clientSecret: secret,
      defaultRole: 'editor',
    });
    expect(refused.status).toBe(400);
    expect(refused.html).not.toContain(secret);
    const page = await client.get('/dashboard/account/sso');
    expect(page.html).toContain('A secret is stored');
    expect(page.html).not.toContain(secret);

    for (const meta of world.t.dataSource.entityMetadatas) {
      const rows: unknown[] = await world.t.dataSource
        .createQueryBuilder()
        .select('*')
        .from(meta.tableName, 'row')
        .getRawMany();
      expect(JSON.stringify(rows), meta.tableName).not.toContain(secret);
    }
    // A sign-in through it: neither the secret nor the callback's code and state are logged.
    const { browser, callback } = await throughProvider(world, `x@${DOMAIN}`);
    expect((await sendCallback(browser, callback)).status).toBe(303);
    const logs = world.t.logs.join('\n');
    expect(logs).toContain('/dashboard/sso/callback');
    expect(logs).not.toContain(secret);
    expect(logs).not.toContain(world.idp.clientSecret);
    expect(logs).not.toContain(callback.searchParams.get('code'));
    expect(logs).not.toContain(callback.searchParams.get('state'));
  });
});
