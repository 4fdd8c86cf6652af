// A person in two accounts, in the system Chromium: the header's switcher lists both, and
// choosing the other one shows that account's forms (and only those) at once.
import { AccountsService } from '../../src/accounts/accounts.service.js';
import { createAccount, createMember } from '../factories/accounts.js';
import { createForm } from '../factories/forms.js';
import { describeBrowser } from '../support/browser.js';
import {
  expectHeading,
  openDashboardBrowser,
  screenshot,
  signUpInBrowser,
  type DashboardBrowser,
} from '../support/dashboard-browser.js';

describeBrowser('dashboard: the account switcher (browser)', () => {
  let dashboard: DashboardBrowser;

  beforeAll(async () => {
    dashboard = await openDashboardBrowser();
  });
  afterAll(async () => {
    await dashboard?.close();
  });

  it('switches between the accounts a user is a member of', async () => {
    const { t, page } = dashboard;
    await signUpInBrowser(page, t.url, 'ada@example.com');
    // No switcher while the user has one account: its name instead.
    await expect(page.getByLabel('Account').count()).resolves.toBe(0);
    const accounts = t.app.get(AccountsService);
    const ada = (await accounts.findUserByEmail('ada@example.com'))!;
    await createForm(t, ada.id, { name: 'Ada leads' });
    const grace = await createAccount(t, 'grace@example.com');
    await createForm(t, grace.account.id, { name: 'Grace orders' });
    await createMember(t, grace.account.id, 'viewer', ada);

    await page.goto(`${t.url}/dashboard/forms`);
    const switcher = page.getByLabel('Account');
    await expect(switcher.inputValue()).resolves.toBe(ada.id);
    await expect(switcher.locator('option').allTextContents()).resolves.toEqual(
      ['ada@example.com (owner)', 'grace@example.com (viewer)'],
    );
    await expect(
      page.getByRole('link', { name: 'Ada leads' }).count(),
    ).resolves.toBe(1);

    const switched = page.waitForResponse(
      (response) =>
        response.url().endsWith('/dashboard/account/switch') &&
        response.status() === 303,
      { timeout: 10_000 },
    );
    await switcher.selectOption(grace.account.id);
    await switched;
    // The page before the switch has the same heading: wait for the other account's form.
    await page.getByRole('link', { name: 'Grace orders' }).waitFor();
    await expectHeading(page, 'Forms');
    await expect(page.getByLabel('Account').inputValue()).resolves.toBe(
      grace.account.id,
    );
    await expect(
      page.getByRole('link', { name: 'Grace orders' }).count(),
    ).resolves.toBe(1);
    await expect(
      page.getByRole('link', { name: 'Ada leads' }).count(),
    ).resolves.toBe(0);
    await screenshot(page, 'account-switcher');

    // And back. The page is already at /dashboard/forms, so waiting for that address would
    // not wait at all: wait for the switch's answer and the new page instead.
    const back = page.waitForResponse(
      (response) =>
        response.url().endsWith('/dashboard/account/switch') &&
        response.status() === 303,
      { timeout: 10_000 },
    );
    await page
      .getByLabel('Account')
      .selectOption(ada.id, { noWaitAfter: true });
    await back;
    await page.getByRole('link', { name: 'Ada leads' }).waitFor();
    await expect(page.getByLabel('Account').inputValue()).resolves.toBe(ada.id);
    await expect(
      page.getByRole('link', { name: 'Ada leads' }).count(),
    ).resolves.toBe(1);
    expect(dashboard.cspViolations).toEqual([]);
  });
});
