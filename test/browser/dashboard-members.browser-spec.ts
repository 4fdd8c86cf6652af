// A team forming, in the system Chromium with a real SMTP server: the owner invites from the
// Members page, the invited person opens the mailed link in a browser of their own, chooses a
// password and lands in the account; the owner changes their role with the select, sees a
// pending invitation, revokes it, and removes the member.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { Membership } from '../../src/accounts/membership.entity.js';
import { InvitationsService } from '../../src/members/invitations.service.js';
import { describeBrowser } from '../support/browser.js';
import {
  BROWSER_PASSWORD as PASSWORD,
  expectHeading,
  openDashboardBrowser,
  screenshot,
  signUpInBrowser,
  type DashboardBrowser,
} from '../support/dashboard-browser.js';
import { TestSmtpServer } from '../support/smtp-server.js';
import type { TestApp } from '../support/test-app.js';

const PUBLIC_URL = 'https://forms.example.test';
const LINK =
  /https:\/\/forms\.example\.test(\/dashboard\/invitations\/[A-Za-z0-9_-]{43})/;

describeBrowser('dashboard: members and invitations (browser)', () => {
  let smtp: TestSmtpServer;
  let dashboard: DashboardBrowser;
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let guest: BrowserContext;

  beforeAll(async () => {
    smtp = await TestSmtpServer.start();
    dashboard = await openDashboardBrowser({
      env: { SMTP_URL: smtp.url, MAIL_FROM: 'forms@example.com', PUBLIC_URL },
    });
    ({ t, browser, page } = dashboard);
    guest = await browser.newContext({
      viewport: { width: 1280, height: 900 },
    });
    await signUpInBrowser(page, t.url, 'ada@example.com');
  });

  afterAll(async () => {
    await guest?.close();
    await dashboard?.close();
    await smtp?.close();
  });

  /** The mailed link, pointed at this test's server instead of PUBLIC_URL. */
  async function linkMailedTo(address: string): Promise<string> {
    await t.app.get(InvitationsService).settled();
    const mail = smtp.to(address).at(-1);
    expect(mail, `a mail to ${address}`).toBeDefined();
    return t.url + LINK.exec(mail!.parsed.text ?? '')![1];
  }
  const membersRow = (name: string) =>
    page.getByRole('row').filter({ hasText: name });

  it('invites from the Members page, and the invited person joins by choosing a password', async () => {
    await page.getByRole('link', { name: 'Members' }).click();
    await expectHeading(page, 'Members');
    await expect(
      membersRow('ada@example.com').getByText('Owner').count(),
    ).resolves.toBeGreaterThan(0);

    await page.getByLabel('Invite by email').fill('sam@example.com');
    await page.getByLabel('Role', { exact: true }).selectOption('editor');
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await page.getByText('The invitation is on its way.').waitFor();
    await page
      .getByRole('table', { name: 'Pending invitations' })
      .getByText('sam@example.com', { exact: true })
      .waitFor();
    await screenshot(page, 'members');

    const link = await linkMailedTo('sam@example.com');
    const sam = await guest.newPage();
    await sam.goto(link);
    await expectHeading(sam, 'You are invited');
    await expect(sam.getByLabel('Email').inputValue()).resolves.toBe(
      'sam@example.com',
    );
    await expect(
      sam.getByLabel('Email').getAttribute('readonly'),
    ).resolves.not.toBeNull();
    await sam.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await sam.getByLabel('Confirm password').fill(PASSWORD);
    await screenshot(sam, 'invitation');
    await sam.getByRole('button', { name: 'Join the account' }).click();
    await expectHeading(sam, 'Members');
    await sam.getByText('Welcome: you joined the account.').waitFor();
    // An editor sees the list, but no invite form.
    await expect(sam.getByLabel('Invite by email').count()).resolves.toBe(0);

    // The link is used.
    await sam.goto(link);
    await expectHeading(sam, 'This invitation was already used');
    await sam.close();
  });

  it("changes the member's role with the select, and removes them", async () => {
    await page.goto(`${t.url}/dashboard/members`);
    const row = membersRow('sam@example.com');
    await row.getByLabel('Role of sam@example.com').selectOption('developer');
    await row.getByRole('button', { name: /Change/ }).click();
    await page.getByText('The role was changed.').waitFor();
    const membership = () =>
      t.dataSource.getRepository(Membership).findOneBy({ role: 'developer' });
    await expect(membership()).resolves.not.toBeNull();

    await membersRow('sam@example.com')
      .getByRole('button', { name: /Remove/ })
      .click();
    await page.getByText('The member was removed.').waitFor();
    await expect(membersRow('sam@example.com').count()).resolves.toBe(0);
  });

  it('shows a person signed in as someone else whom the invitation is for, and revokes it', async () => {
    await page.goto(`${t.url}/dashboard/members`);
    await page.getByLabel('Invite by email').fill('lee@example.com');
    await page.getByLabel('Role', { exact: true }).selectOption('viewer');
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await page.getByText('The invitation is on its way.').waitFor();
    const link = await linkMailedTo('lee@example.com');

    // Ada, signed in, opens Lee's link.
    const other = await dashboard.context.newPage();
    await other.goto(link);
    await other
      .getByText(
        'This invitation is for lee@example.com, and you are signed in as ada@example.com.',
      )
      .waitFor();
    await expect(
      other.getByRole('button', { name: 'Accept the invitation' }).count(),
    ).resolves.toBe(0);
    await other.close();

    await page
      .getByRole('button', { name: 'Revoke the invitation of lee@example.com' })
      .click();
    await page.getByText('The invitation was revoked').waitFor();
    const lee = await guest.newPage();
    const response = await lee.goto(link);
    expect(response?.status()).toBe(410);
    await expectHeading(lee, 'This invitation was revoked');
    await lee.close();
    expect(dashboard.cspViolations).toEqual([]);
  });
});
