// Two-step codes as a person's authenticator app computes them (otpauth, from the secret
// the set-up page shows), and setting them up through the dashboard.
import { Secret, TOTP } from 'otpauth';
import type { DashboardClient } from './dashboard-client.js';

/** The code of `secret` at `timestamp` (ms): SHA-1, 6 digits, 30 s. */
export function totpCode(secret: string, timestamp = Date.now()): string {
  return new TOTP({
    secret: Secret.fromBase32(secret),
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
  }).generate({ timestamp });
}

export interface TotpSetUp {
  secret: string;
  recoveryCodes: string[];
  /** The page that showed the secret and its QR code. */
  setupHtml: string;
  /** The page that showed the recovery codes. */
  codesHtml: string;
}

export const SECURITY = '/dashboard/account/security';

/** Turns on two-step codes for the signed-in client, as a person does on the page. */
export async function setUpTotp(client: DashboardClient): Promise<TotpSetUp> {
  const setup = await client.post(
    `${SECURITY}/totp/setup`,
    {},
    { from: SECURITY },
  );
  expect(setup.status).toBe(200);
  const secret = /data-totp-secret>([A-Z2-7]+)</.exec(setup.html)?.[1];
  expect(secret).toBeDefined();
  const confirmed = await client.post(
    `${SECURITY}/totp/confirm`,
    { code: totpCode(secret!) },
    { from: SECURITY },
  );
  expect(confirmed.status).toBe(200);
  const recoveryCodes = [
    ...confirmed.html.matchAll(/<li><code>([a-z0-9-]+)<\/code><\/li>/g),
  ].map((match) => match[1]);
  expect(recoveryCodes).toHaveLength(10);
  return {
    secret: secret!,
    recoveryCodes,
    setupHtml: setup.html,
    codesHtml: confirmed.html,
  };
}
