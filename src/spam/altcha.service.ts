// Self-hosted proof of work (ALTCHA): challenges for a form's widget, and the check of a
// solved one. A challenge is signed with a key derived from APP_SECRET and the form id,
// so it is good for that form only, and it expires after ALTCHA_MAX_AGE_SECONDS.
//
// The work: the browser derives PBKDF2-SHA-256 keys (ALTCHA_COST iterations each) for
// counters 0, 1, 2 … until one matches the key this service derived for a counter it
// drew at random between ALTCHA_MIN_COUNTER and ALTCHA_MAX_COUNTER — about
// ALTCHA_COST × 1,000 iterations on average. The service signs that key into the
// challenge ("deterministic mode"), so checking a solution is two HMACs: it costs the
// same whatever ALTCHA_COST is. They are computed here with node:crypto, synchronously,
// exactly as altcha-lib's verifySolution computes them (altcha.spec.ts holds the two to
// the same verdicts): its WebCrypto calls make four trips through the thread pool per
// submission, which halved the throughput of a form with ALTCHA.
import { Injectable } from '@nestjs/common';
import { createChallenge, randomInt } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { AppConfig } from '../config/app-config.js';
import {
  ALTCHA_ALGORITHM,
  parseAltchaPayload,
  type AltchaChallenge,
  type AltchaPayload,
} from './altcha-payload.js';
import { tokenId } from './used-token.store.js';

export const ALTCHA_MIN_COUNTER = 500;
export const ALTCHA_MAX_COUNTER = 1500;

export type AltchaCheck =
  | { ok: true; id: string; expiresAt: Date }
  | { ok: false; problem: 'missing' | 'malformed' | 'wrong' | 'expired' };

export interface FormSecrets {
  /** Signs a challenge's parameters. */
  signature: string;
  /** Signs the key a challenge's solution must derive. */
  key: string;
}

/** The HMAC secrets of a form's challenges: derived from APP_SECRET and the form id. */
export function altchaSecrets(appSecret: string, formId: string): FormSecrets {
  const derive = (purpose: string) =>
    Buffer.from(
      hkdfSync('sha256', appSecret, formId, `formgate:altcha:${purpose}`, 32),
    ).toString('hex');
  return { signature: derive('challenge'), key: derive('key') };
}

/** Forms whose derived secrets are kept (deriving is cheap; this only spares the work). */
const MAX_CACHED_SECRETS = 10_000;

@Injectable()
export class AltchaService {
  private readonly secrets = new Map<string, FormSecrets>();

  constructor(private readonly config: AppConfig) {}

  /** A new challenge for the form's widget. */
  async challenge(formId: string, now = Date.now()): Promise<AltchaChallenge> {
    const secrets = this.secretsOf(formId);
    const challenge = await createChallenge({
      algorithm: ALTCHA_ALGORITHM,
      cost: this.config.spam.altchaCost,
      counter: randomInt(ALTCHA_MAX_COUNTER, ALTCHA_MIN_COUNTER),
      deriveKey,
      expiresAt: Math.floor(now / 1000) + this.config.spam.altchaMaxAgeSeconds,
      hmacSignatureSecret: secrets.signature,
      hmacKeySignatureSecret: secrets.key,
    });
    return challenge as unknown as AltchaChallenge;
  }

  /**
   * Checks a submission's `altcha` value against the form: the id to claim as used
   * (the challenge's signature) when it is a valid solution, else the problem.
   */
  check(formId: string, raw: unknown): Promise<AltchaCheck> {
    const payload = parseAltchaPayload(raw);
    if (typeof payload === 'string') {
      return Promise.resolve({ ok: false, problem: payload });
    }
    return Promise.resolve(
      verifyAltcha(payload, this.secretsOf(formId), Date.now()),
    );
  }

  private secretsOf(formId: string): FormSecrets {
    let secrets = this.secrets.get(formId);
    if (secrets === undefined) {
      secrets = altchaSecrets(this.config.appSecret, formId);
      if (this.secrets.size >= MAX_CACHED_SECRETS) this.secrets.clear();
      this.secrets.set(formId, secrets);
    }
    return secrets;
  }
}

function hmacHex(secret: string, data: string | Buffer): string {
  return createHmac('sha256', secret).update(data).digest('hex');
}

function sameHex(a: string, b: string): boolean {
  return (
    a.length === b.length &&
    timingSafeEqual(Buffer.from(a, 'latin1'), Buffer.from(b, 'latin1'))
  );
}

/**
 * altcha-lib's verifySolution for this service's challenges (a flat, checked parameter
 * object; SHA-256 HMACs; the key-signature path): expiry, then the challenge's signature
 * over its parameters with sorted keys, then the solution's key against the signed one.
 */
export function verifyAltcha(
  payload: AltchaPayload,
  secrets: FormSecrets,
  now: number,
): AltchaCheck {
  const { parameters, signature } = payload.challenge;
  if (parameters.expiresAt < now / 1000) {
    return { ok: false, problem: 'expired' };
  }
  const sorted = Object.fromEntries(
    Object.keys(parameters)
      .sort()
      .map((key) => [key, parameters[key as keyof typeof parameters]]),
  );
  const expected = hmacHex(secrets.signature, JSON.stringify(sorted));
  if (!sameHex(signature, expected)) return { ok: false, problem: 'wrong' };
  const keySignature = hmacHex(
    secrets.key,
    Buffer.from(payload.solution.derivedKey, 'hex'),
  );
  if (!sameHex(parameters.keySignature, keySignature)) {
    return { ok: false, problem: 'wrong' };
  }
  return {
    ok: true,
    id: tokenId('altcha', signature),
    expiresAt: new Date(parameters.expiresAt * 1000),
  };
}
