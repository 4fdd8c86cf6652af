// "Require SSO" also holds on an invitation's page: a person in an SSO domain who joins by
// logging in or signing up with a password there is sent to "Sign in with SSO" instead of
// getting a password session.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Membership } from '../../../src/accounts/membership.entity.js';
import { InvitationsService } from '../../../src/members/invitations.service.js';
import { createAccount, TEST_PASSWORD } from '../../factories/accounts.js';
import type { TestAccount } from '../../factories/accounts.js';
import { DashboardClient, textOf } from '../../support/dashboard-client.js';
import { request } from '../../support/http.js';
import { TestSmtpServer } from '../../support/smtp-server.js';
import {
  PUBLIC_URL,
  sendCallback,
  ssoAccount,
  startSsoWorld,
  throughProvider,
  type SsoWorld,
} from './sso-helpers.js';

const LINK = /\/dashboard\/invitations\/([A-Za-z0-9_-]+)/;
const DOMAIN = 'invited.test';

let smtp: TestSmtpServer;
let world: SsoWorld;
let owner: TestAccount;

beforeAll(async () => {
  smtp = await TestSmtpServer.start();
  world = await startSsoWorld({
    SMTP_URL: smtp.url,
    MAIL_FROM: 'forms@example.com',
  });
  ({ owner } = await ssoAccount(world, DOMAIN, { requireSso: 'on' }));
});

afterAll(async () => {
  await world?.close();
  await smtp?.close();
});

async function invite(email: string): Promise<string> {
  const res = await request(`${world.t.url}/api/v1/account/invitations`, {
    apiKey: owner.apiKey,
    json: { email, role: 'editor' },
  });
  expect(res.status).toBe(201);
  await world.t.app.get(InvitationsService).settled();
  const mail = smtp.to(email).at(-1)!;
  return LINK.exec(mail.parsed.text ?? '')![1];
}

const membershipOf = (userId: string) =>
  world.t.dataSource
    .getRepository(Membership)
    .findOneBy({ accountId: owner.account.id, userId });

describe('an invitation into an account that requires SSO', () => {
  it('joins someone who signs up with a password there, then sends them to SSO', async () => {
    const email = `carol@${DOMAIN}`;
    const path = `/dashboard/invitations/${await invite(email)}`;
    const visitor = new DashboardClient(world.t.url);
    const page = await visitor.post(
      `${path}/signup`,
      { password: TEST_PASSWORD, confirmPassword: TEST_PASSWORD },
      { from: path },
    );
    expect(page.status).toBe(303);
    expect(page.location).toBe(
      `/dashboard/sso?email=${encodeURIComponent(email)}`,
    );
    expect(visitor.cookies.has('dashboard_session')).toBe(false);
    const { browser, callback } = await throughProvider(world, email);
    const signedIn = await sendCallback(browser, callback);
    expect(signedIn.location).toBe('/dashboard/forms');
  });

  it('keeps a password session out of the account once its owner joined by invitation', async () => {
    const email = `dave@${DOMAIN}`;
    const dave = await createAccount(world.t, email);
    const path = `/dashboard/invitations/${await invite(email)}`;
    // Not yet a member of the account: the password signs in to dave's own.
    const visitor = new DashboardClient(world.t.url);
    expect((await visitor.logIn(email)).status).toBe(303);
    const accepted = await visitor.post(`${path}/accept`, {}, { from: path });
    expect(accepted.location).toBe('/dashboard/members?done=joined');
    expect(await membershipOf(dave.user.id)).toMatchObject({ role: 'editor' });
    const refused = await visitor.get('/dashboard/members?done=joined');
    expect(refused.status).toBe(403);
    expect(textOf(refused.html)).toContain(
      'This account requires single sign-on for your address',
    );
    expect((await visitor.get('/dashboard/forms')).status).toBe(403);
    // Their own account stays theirs, and they can still log out.
    const own = await visitor.post(
      '/dashboard/account/switch',
      { accountId: dave.account.id },
      // The refusal page still carries the account switcher.
      { from: '/dashboard/forms' },
    );
    expect(own.status).toBe(303);
    expect((await visitor.get('/dashboard/forms')).status).toBe(200);
    // From now on the password is refused for them, though they own an account.
    expect((await new DashboardClient(world.t.url).logIn(email)).status).toBe(
      403,
    );
    // SSO gets them into the account.
    const { browser, callback } = await throughProvider(world, email);
    expect((await sendCallback(browser, callback)).status).toBe(303);
    expect((await browser.get('/dashboard/forms')).status).toBe(200);
  });

  it('leaves the invitation page as it was for addresses outside the SSO domains', async () => {
    const email = 'erin@outside.test';
    const path = `/dashboard/invitations/${await invite(email)}`;
    const visitor = new DashboardClient(world.t.url);
    const page = await visitor.post(
      `${path}/signup`,
      { password: TEST_PASSWORD, confirmPassword: TEST_PASSWORD },
      { from: path },
    );
    expect(page.location).toBe('/dashboard/members?done=joined');
    expect(visitor.cookies.has('dashboard_session')).toBe(true);
    expect(PUBLIC_URL).toContain('formgate.test');
  });
});
