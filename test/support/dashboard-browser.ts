// Helpers for the dashboard's browser specs: a plain HTTP server on another loopback origin
// (a customer's site) and screenshots saved to a temporary folder (SCREENSHOT_DIR, else
// formgate-screenshots under the system's temporary directory), never into the repository.
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';

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
