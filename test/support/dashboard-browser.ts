// Helpers for the dashboard's browser specs: the app with Chromium and one page watched for
// Content-Security-Policy violations, the sign-up and fields-editor steps they share, a plain
// HTTP server on another loopback origin (a customer's site) and screenshots saved to a
// temporary folder (SCREENSHOT_DIR, else formgate-screenshots under the system's temporary
// directory), never into the repository.
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser } from './browser.js';
import {
  createTestApp,
  type TestApp,
  type TestAppOptions,
} from './test-app.js';

/** The password the browser journeys sign up with. */
export const BROWSER_PASSWORD = 'blue-harbour-1987';

export interface DashboardBrowser {
  t: TestApp;
  browser: Browser;
  /** Keeps downloads; a 1280×900 viewport. */
  context: BrowserContext;
  page: Page;
  /** Content-Security-Policy violations the browser reported on `page`. */
  cspViolations: string[];
  close(): Promise<void>;
}

/** Boots the app (with `options`) and Chromium, and opens the page a journey drives. */
export async function openDashboardBrowser(
  options: TestAppOptions = {},
): Promise<DashboardBrowser> {
  const t = await createTestApp(options);
  const browser = await launchBrowser();
  const context = await browser.newContext({
    acceptDownloads: true,
    viewport: { width: 1280, height: 900 },
  });
  const page = await context.newPage();
  const cspViolations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) {
      cspViolations.push(`${page.url()}: ${message.text()}`);
    }
  });
  return {
    t,
    browser,
    context,
    page,
    cspViolations,
    async close() {
      await browser.close();
      await t.close();
    },
  };
}

/** Signs `email` up through the sign-up page and waits for the forms list. */
export async function signUpInBrowser(
  page: Page,
  baseUrl: string,
  email: string,
  password = BROWSER_PASSWORD,
): Promise<void> {
  await page.goto(`${baseUrl}/dashboard/signup`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm password').fill(password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expectHeading(page, 'Forms');
}

/** Row `n` (from 1) of the fields editor. */
export function field(page: Page, n: number) {
  return page.getByRole('group', { name: `Field ${n}`, exact: true });
}

export async function fillField(
  page: Page,
  n: number,
  spec: { id: string; label: string; type?: string; required?: boolean },
): Promise<void> {
  const row = field(page, n);
  await row.getByLabel('ID', { exact: true }).fill(spec.id);
  await row.getByLabel('Label', { exact: true }).fill(spec.label);
  if (spec.type) await row.getByLabel('Type').selectOption(spec.type);
  if (spec.required) await row.getByLabel('Required').check();
}

export async function expectHeading(page: Page, name: string): Promise<void> {
  await page.getByRole('heading', { level: 1, name, exact: true }).waitFor();
}

export const SCREENSHOT_DIR =
  process.env.SCREENSHOT_DIR ?? join(tmpdir(), 'formgate-screenshots');

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({
    path: join(SCREENSHOT_DIR, `dashboard-${name}.png`),
    fullPage: true,
  });
}

export interface CustomerSite {
  /** http://localhost:PORT — another origin than the app's http://127.0.0.1:PORT. */
  url: string;
  /** Serves `html` (a full page around it) at `path`. */
  setPage(path: string, html: string): void;
  close(): Promise<void>;
}

export async function startCustomerSite(): Promise<CustomerSite> {
  const pages = new Map<string, string>();
  const server: Server = createServer((request, response) => {
    const body = pages.get(request.url ?? '/');
    if (body === undefined) {
      response.writeHead(404).end('not found');
      return;
    }
    response
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://localhost:${port}`,
    setPage(path, html) {
      pages.set(
        path,
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Customer site</title></head><body><h1>Contact us</h1>\n${html}\n</body></html>`,
      );
    },
    close: () =>
      new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      ),
  };
}
