// Second factors in the system Chromium, on http://localhost:PORT (= PUBLIC_URL): two-step
// codes set up from the secret the page shows and signed in with codes computed from it
// (otpauth), a replayed code refused, a recovery code used once; passkeys registered and
// used through Chromium's virtual authenticator (DevTools WebAuthn domain), alone and as
// the second step; and the account's policy sending a member without a factor to set-up.
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { DashboardSession } from '../../src/dashboard/session/dashboard-session.entity.js';
import { Passkey } from '../../src/second-factors/passkey.entity.js';
import { createMember } from '../factories/accounts.js';
import { TEST_PASSWORD } from '../factories/accounts.js';
import { describeBrowser } from '../support/browser.js';
import {
  BROWSER_PASSWORD as PASSWORD,
  expectHeading,
  openDashboardBrowser,
  screenshot,
  signUpInBrowser,
  type DashboardBrowser,
} from '../support/dashboard-browser.js';
import {
  startLocalhostOrigin,
  type LocalhostOrigin,
} from '../support/localhost-origin.js';
import { totpCode } from '../support/second-factors.js';
import type { TestApp } from '../support/test-app.js';

const EMAIL = 'grace@example.com';

describeBrowser('sign-in security (browser)', () => {
  let origin: LocalhostOrigin;
  let dashboard: DashboardBrowser;
  let t: TestApp;
  let context: BrowserContext;
  let page: Page;
  let cdp: CDPSession;
  let secret = '';
  let recoveryCodes: string[] = [];

  const url = (path: string) => `${origin.url}${path}`;
  async function logOut(): Promise<void> {
    await page.getByRole('button', { name: 'Log out' }).first().click();
    await expectHeading(page, 'Log in to Formgate');
  }
  async function password(): Promise<void> {
    await page.goto(url('/dashboard/login'));
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await expectHeading(page, 'One more step');
  }
  const methods = async () =>
    (await t.dataSource.getRepository(DashboardSession).find()).map(
      (s) => s.method,
    );

  beforeAll(async () => {
    origin = await startLocalhostOrigin();
    dashboard = await openDashboardBrowser({ env: { PUBLIC_URL: origin.url } });
    ({ t, context, page } = dashboard);
    origin.pointAt(t.url);
    page.setDefaultTimeout(10_000);
    cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
      },
    });
    await signUpInBrowser(page, origin.url, EMAIL);
  });
  afterAll(async () => {
    await dashboard?.close();
    await origin?.close();
  });

  it('sets up two-step codes from the shown secret and QR code', async () => {
    await page.goto(url('/dashboard/account/security'));
    await page.getByRole('button', { name: 'Set up two-step codes' }).click();
    await expectHeading(page, 'Set up two-step codes');
    await expect(page.locator('.qr-code svg').count()).resolves.toBe(1);
    secret = (await page.locator('[data-totp-secret]').textContent())!.trim();
    await page
      .getByLabel('The six-digit code your app shows')
      .fill(totpCode(secret));
    await page.getByRole('button', { name: 'Turn on' }).click();
    await expectHeading(page, 'Your recovery codes');
    recoveryCodes = await page
      .locator('[data-recovery-codes] code')
      .allTextContents();
    expect(recoveryCodes).toHaveLength(10);
    await screenshot(page, 'recovery-codes');
    await page.getByRole('link', { name: 'I have saved them' }).click();
    await expect(
      page.getByRole('status').first().textContent(),
    ).resolves.toContain('Two-step codes are on.');
  });

  it('signs in with a code, refuses it replayed, and takes a recovery code once', async () => {
    await logOut();
    const code = totpCode(secret, Date.now() + 30_000);
    await password();
    await page.getByLabel('Code from your authenticator app').fill(code);
    await page.getByRole('button', { name: 'Continue' }).click();
    await expectHeading(page, 'Forms');

    await logOut();
    await password();
    await page.getByLabel('Code from your authenticator app').fill(code);
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(
      page.locator('.error-summary').textContent(),
    ).resolves.toContain('That code was used already');

    await page.getByText('Use a recovery code').click();
    await page.getByLabel('Recovery code').fill(recoveryCodes[0]);
    await page.getByRole('button', { name: 'Use this recovery code' }).click();
    await expectHeading(page, 'Sign-in security');

    await logOut();
    await password();
    await page.getByText('Use a recovery code').click();
    await page.getByLabel('Recovery code').fill(recoveryCodes[0]);
    await page.getByRole('button', { name: 'Use this recovery code' }).click();
    await expect(
      page.locator('.error-summary').textContent(),
    ).resolves.toContain(
      'That recovery code is not right, or it was used already',
    );
    // Another recovery code still works (the next step's code was used already).
    await page.getByLabel('Recovery code').fill(recoveryCodes[1]);
    await page.getByRole('button', { name: 'Use this recovery code' }).click();
    await expectHeading(page, 'Sign-in security');
  });

  it('registers a passkey with the virtual authenticator', async () => {
    await page.goto(url('/dashboard/account/security'));
    await page.getByLabel('Name of the new passkey').fill('Work laptop');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.getByText('Your passkey was added.').waitFor();
    await expect(
      page.locator('[data-passkey-row] input[name="name"]').inputValue(),
    ).resolves.toBe('Work laptop');
    const [stored] = await t.dataSource.getRepository(Passkey).find();
    expect(stored).toMatchObject({
      name: 'Work laptop',
      transports: expect.any(String),
    });
    await screenshot(page, 'passkeys');
  });

  it('signs in with the passkey alone, and uses it as the second step', async () => {
    await logOut();
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expectHeading(page, 'Forms');
    expect(await methods()).toContain('passkey');

    await logOut();
    await password();
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await expectHeading(page, 'Forms');
    expect(await methods()).toContain('password+passkey');
    const [stored] = await t.dataSource.getRepository(Passkey).find();
    expect(stored.lastUsedAt).not.toBeNull();
  });

  it('sends a member without a factor to set one up when the account requires one', async () => {
    await page.goto(url('/dashboard/account/security'));
    await page.getByLabel(/Members must use a second factor/).check();
    await page.getByRole('button', { name: 'Save policy' }).click();
    await expect(
      page.getByRole('status').first().textContent(),
    ).resolves.toContain('sign-in policy was saved');
    const [session] = await t.dataSource.getRepository(DashboardSession).find();
    const member = await createMember(t, session.accountId, 'editor');

    const other = await dashboard.browser.newContext();
    const memberPage = await other.newPage();
    await memberPage.goto(url('/dashboard/login'));
    await memberPage.getByLabel('Email').fill(member.email);
    await memberPage
      .getByLabel('Password', { exact: true })
      .fill(TEST_PASSWORD);
    await memberPage
      .getByRole('button', { name: 'Log in', exact: true })
      .click();
    await expectHeading(memberPage, 'Sign-in security');
    await expect(
      memberPage.locator('[data-setup-required]').textContent(),
    ).resolves.toContain('This account requires a second factor.');
    await memberPage.goto(url('/dashboard/forms'));
    await expectHeading(memberPage, 'Sign-in security');
    await screenshot(memberPage, 'second-factor-required');
    await other.close();
  });

  it('reported no Content-Security-Policy violation', () => {
    expect(dashboard.cspViolations).toEqual([]);
  });
});
