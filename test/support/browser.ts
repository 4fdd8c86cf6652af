// Launches the system Chromium through playwright-core (never a downloaded browser).
// Outside CI a machine without Chromium skips browser specs; in CI (CI=true) a missing
// browser is a failure.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { describeWhen } from './skips.js';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const browserAvailable = existsSync(CHROMIUM_PATH);
const browserRequired =
  process.env.CI === 'true' || process.env.REQUIRE_BROWSER === 'true';

/** `describe` for browser specs: runs when Chromium is present or required. */
export const describeBrowser = describeWhen(
  browserAvailable || browserRequired,
  `needs Chromium at ${CHROMIUM_PATH} (apt-get install chromium, or set CHROMIUM_PATH)`,
);

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
