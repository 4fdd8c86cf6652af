// Shared set-up of the SSO specs: an app whose PUBLIC_URL gives the callback registered at a
// real OpenID provider on loopback, the DNS server that proves SSO domains, and the steps
// an owner and a person signing in take through the dashboard.
import { expect } from 'vitest';
import { createAccount, type TestAccount } from '../../factories/accounts.js';
import {
  csrfOf,
  DashboardClient,
  type Page,
} from '../../support/dashboard-client.js';
import {
  startDnsServer,
  type TestDnsServer,
} from '../../support/dns-server.js';
import {
  startOidcProvider,
  type OidcUser,
  type TestOidcProvider,
} from '../../support/oidc-provider.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

export const PUBLIC_URL = 'http://formgate.test';
export const CALLBACK_URL = `${PUBLIC_URL}/dashboard/sso/callback`;

export interface SsoWorld {
  t: TestApp;
  dns: TestDnsServer;
  idp: TestOidcProvider;
  close(): Promise<void>;
}

export async function startSsoWorld(
  env: Record<string, string> = {},
): Promise<SsoWorld> {
  const dns = await startDnsServer();
  const idp = await startOidcProvider({ redirectUri: CALLBACK_URL });
  const t = await createTestApp({
    env: { DNS_SERVERS: dns.address, PUBLIC_URL, ...env },
  });
  return {
    t,
    dns,
    idp,
    async close() {
      await t.close();
      await idp.close();
      await dns.close();
    },
  };
}

/** A signed-in owner of a new account, through the dashboard's log-in page. */
export async function ownerClient(
  world: SsoWorld,
  email: string,
): Promise<{ owner: TestAccount; client: DashboardClient }> {
  const owner = await createAccount(world.t, email);
  const client = new DashboardClient(world.t.url);
  expect((await client.logIn(email)).status).toBe(303);
  return { owner, client };
}

/** Saves the SSO settings on /dashboard/account/sso. */
export function saveSettings(
  client: DashboardClient,
  fields: Record<string, string>,
): Promise<Page> {
  return client.post('/dashboard/account/sso', fields, {
    from: '/dashboard/account/sso',
  });
}

/** Adds an SSO domain and returns its id and the TXT value the page shows for it. */
export async function addDomain(
  client: DashboardClient,
  domain: string,
): Promise<{ id: string; txtValue: string }> {
  const added = await client.post(
    '/dashboard/account/sso/domains',
    { domain },
    { from: '/dashboard/account/sso' },
  );
  expect(added.status).toBe(303);
  const page = await client.get('/dashboard/account/sso');
  const row = page.html
    .split('<tr>')
    .find((part) => part.includes(`<strong>${domain}</strong>`));
  expect(row, domain).toBeDefined();
  const id = /domains\/([^/]+)\/remove/.exec(row!)?.[1];
  const txtValue = /(formgate-verification=[0-9a-f]+)/.exec(row!)?.[1];
  expect(id && txtValue).toBeTruthy();
  return { id: id!, txtValue: txtValue! };
}

/** Adds, publishes and verifies an SSO domain. */
export async function proveDomain(
  world: SsoWorld,
  client: DashboardClient,
  domain: string,
): Promise<string> {
  const { id, txtValue } = await addDomain(client, domain);
  world.dns.setTxt(domain, [txtValue]);
  const verified = await client.post(
    `/dashboard/account/sso/domains/${id}/verify`,
    {},
    { from: '/dashboard/account/sso' },
  );
  expect(verified.location).toBe('/dashboard/account/sso?done=domain-verified');
  return id;
}

/** An owner's account with SSO through the test provider and `domain` proven. */
export async function ssoAccount(
  world: SsoWorld,
  domain: string,
  settings: Record<string, string> = {},
): Promise<{ owner: TestAccount; client: DashboardClient }> {
  const { owner, client } = await ownerClient(world, `owner@${domain}`);
  await proveDomain(world, client, domain);
  const saved = await saveSettings(client, {
    issuerUrl: world.idp.issuer,
    clientId: world.idp.clientId,
    clientSecret: world.idp.clientSecret,
    defaultRole: 'editor',
    ...settings,
  });
  expect(saved.status, saved.html).toBe(303);
  return { owner, client };
}

/** "Sign in with SSO" with `email`: the app's answer to the start (a redirect to the provider). */
export async function startSso(
  world: SsoWorld,
  email: string,
): Promise<{ browser: DashboardClient; start: Page }> {
  const browser = new DashboardClient(world.t.url);
  const form = await browser.get('/dashboard/sso');
  expect(form.status).toBe(200);
  const start = await browser.post(
    '/dashboard/sso',
    { email },
    { csrf: csrfOf(form.html) },
  );
  return { browser, start };
}

/**
 * A whole SSO sign-in: start with `email`, sign in at the provider as `user`, and return
 * the callback URL (to send, perhaps tampered) and the browser that started it.
 */
export async function throughProvider(
  world: SsoWorld,
  email: string,
  user: OidcUser = { email, emailVerified: true },
): Promise<{ browser: DashboardClient; callback: URL }> {
  const { browser, start } = await startSso(world, email);
  expect(start.status, start.html).toBe(303);
  expect(start.location?.startsWith(world.idp.issuer)).toBe(true);
  world.idp.signInAs(user);
  const callback = await world.idp.authorize(start.location!);
  return { browser, callback };
}

/** Sends the callback to the app as the provider's redirect would. */
export function sendCallback(
  browser: DashboardClient,
  callback: URL,
): Promise<Page> {
  return browser.get(`${callback.pathname}${callback.search}`);
}
