// Leaving and coming back, in the system Chromium: logging out revokes the session cookie,
// repeated failed logins make the next try wait, and the Swagger UI works under its own
// Content-Security-Policy.
import type { BrowserContext, Page } from 'playwright-core';
import { describeBrowser } from '../support/browser.js';
import {
  BROWSER_PASSWORD as PASSWORD,
  expectHeading,
  openDashboardBrowser,
  screenshot,
  signUpInBrowser,
  type DashboardBrowser,
} from '../support/dashboard-browser.js';
import type { TestApp } from '../support/test-app.js';

describeBrowser('dashboard: sessions and log-in (browser)', () => {
  let dashboard: DashboardBrowser;
  let t: TestApp;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    dashboard = await openDashboardBrowser();
    ({ t, context, page } = dashboard);
    await signUpInBrowser(page, t.url, 'ada@example.com');
  });

  afterAll(async () => {
    await dashboard?.close();
  });

  it('keeps the Swagger UI working under its own policy', async () => {
    const docs = await context.newPage();
    await docs.goto(`${t.url}/docs`);
    await docs
      .getByRole('heading', { name: /Formgate API/ })
      .first()
      .waitFor();
    await expect(docs.locator('.opblock').count()).resolves.toBeGreaterThan(3);
    await docs.close();
  });

  it('logs out, and the old session cookie stops working', async () => {
    const [session] = (await context.cookies()).filter(
      (cookie) => cookie.name === 'dashboard_session',
    );
    expect(session).toMatchObject({
      httpOnly: true,
      sameSite: 'Lax',
      path: '/dashboard',
    });
    await page.getByRole('button', { name: 'Log out' }).click();
    await expectHeading(page, 'Log in to Formgate');
    await expect(page.getByRole('status').textContent()).resolves.toMatch(
      /logged out/,
    );

    // Put the copied cookie back: the server has forgotten it.
    await context.addCookies([{ ...session }]);
    await page.goto(`${t.url}/dashboard/forms`);
    await expectHeading(page, 'Log in to Formgate');
    await screenshot(page, 'login');
  });

  it('answers a quick retry after repeated failed logins with 429 and a page saying to wait', async () => {
    await page.goto(`${t.url}/dashboard/login`);
    // Three failures for one email are free; the fourth makes this client wait 4 s
    // before its next try for that email (8 s after the fifth, and so on).
    const logIn = async (password: string) => {
      await page.getByLabel('Email').fill('ada@example.com');
      await page.getByLabel('Password').fill(password);
      const [response] = await Promise.all([
        page.waitForResponse(
          (r) =>
            r.url().endsWith('/dashboard/login') &&
            r.request().method() === 'POST',
        ),
        page.getByRole('button', { name: 'Log in' }).click(),
      ]);
      return response.status();
    };
    for (let attempt = 1; attempt <= 4; attempt++) {
      expect(await logIn(`wrong-password-${attempt}`)).toBe(401);
    }
    expect(await logIn(PASSWORD)).toBe(429);
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(
      /Too many attempts\. Please wait [1-4] seconds?/,
    );
    await screenshot(page, 'login-rate-limited');
  });

  it('serves every dashboard page without Content-Security-Policy violations', () => {
    expect(dashboard.cspViolations).toEqual([]);
  });
});
