// Solving ALTCHA challenges the way the widget does (altcha-lib's solver, PBKDF2 in this
// process), and encoding the `altcha` field it would send. Tests run the app with a low
// ALTCHA_COST so a solution takes milliseconds; the browser spec uses the real widget.
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { randomBytes } from 'node:crypto';
import { AltchaService } from '../../src/spam/altcha.service.js';
import type { AltchaChallenge } from '../../src/spam/altcha-payload.js';
import { request } from './http.js';
import type { TestApp } from './test-app.js';

/** The `altcha` field for a solved challenge. */
export function encodeAltcha(payload: unknown): string {
  return Buffer.from(JSON.stringify(payload)).toString('base64');
}

export async function solve(challenge: AltchaChallenge): Promise<string> {
  const solution = await solveChallenge({
    challenge: challenge as never,
    deriveKey,
  });
  if (solution === null) throw new Error('could not solve the challenge');
  return encodeAltcha({
    challenge: {
      parameters: challenge.parameters,
      signature: challenge.signature,
    },
    solution,
  });
}

/** A challenge from the public route, asked from a random client address (TRUST_PROXY=1). */
export async function fetchChallenge(
  baseUrl: string,
  formId: string,
): Promise<AltchaChallenge> {
  const res = await request<AltchaChallenge>(
    `${baseUrl}/api/submit/${formId}/challenge`,
    { headers: { 'x-forwarded-for': `198.51.100.${randomBytes(1)[0]}` } },
  );
  if (res.status !== 200) {
    throw new Error(`challenge: ${res.status} ${res.text}`);
  }
  return res.body;
}

/** A solved challenge made by the app's own service (no route, no rate limit). */
export async function solvedAltcha(
  t: TestApp,
  formId: string,
  now?: number,
): Promise<string> {
  return solve(await t.app.get(AltchaService).challenge(formId, now));
}
