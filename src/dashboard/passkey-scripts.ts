// The scripts a page with a passkey button loads: @simplewebauthn/browser's bundle, served
// by the app from node_modules under the dashboard's assets (same origin, the dashboard's
// CSP), then the dashboard's own passkey buttons.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

export const WEBAUTHN_BROWSER_PATH =
  '/dashboard/assets/vendor/simplewebauthn-browser.js';

export const PASSKEY_SCRIPTS = [
  WEBAUTHN_BROWSER_PATH,
  '/dashboard/assets/passkeys.js',
] as const;

let bundle: string | undefined;

/** The browser bundle (UMD: it defines `SimpleWebAuthnBrowser`), read once. */
export function webauthnBrowserBundle(): string {
  if (bundle === undefined) {
    const require = createRequire(import.meta.url);
    // The package's CommonJS entry is script/index.js; the bundle sits beside it.
    const entry = pathToFileURL(require.resolve('@simplewebauthn/browser'));
    bundle = readFileSync(
      new URL('../dist/bundle/index.umd.min.js', entry),
      'utf8',
    );
  }
  return bundle;
}
