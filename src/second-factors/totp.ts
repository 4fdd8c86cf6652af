// TOTP (RFC 6238: SHA-1, 6 digits, 30 s steps, one step either side) and recovery codes:
// the pure parts, unit-tested beside this file.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';

export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
export const RECOVERY_CODE_COUNT = 10;

/** A new random secret (160 bits, as RFC 4226 recommends), base32. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

function totpOf(secret: string, label = '', issuer = 'Formgate'): TOTP {
  return new TOTP({
    issuer,
    label,
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(secret),
  });
}

/** The `otpauth://` address an authenticator app reads from the QR code. */
export function totpUri(secret: string, label: string, issuer: string): string {
  return totpOf(secret, label, issuer).toString();
}

/** The time step of `now` (milliseconds). */
export function totpStep(now: number): number {
  return Math.floor(now / 1000 / TOTP_PERIOD_SECONDS);
}

/**
 * The time step a code belongs to (now, or one step either side), or null when it is not
 * a code of this secret. The caller refuses a step at or before the last one accepted.
 */
export function totpCodeStep(
  secret: string,
  code: string,
  now: number,
): number | null {
  const token = code.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(token)) return null;
  const delta = totpOf(secret).validate({ token, timestamp: now, window: 1 });
  return delta === null ? null : totpStep(now) + delta;
}

/** Ten codes like `7kq4-m2xp-9c3f`: 60 random bits each, easy to type. */
export function newRecoveryCodes(count = RECOVERY_CODE_COUNT): string[] {
  const alphabet = '23456789abcdefghjkmnpqrstuvwxyz';
  return Array.from({ length: count }, () => {
    const bytes = randomBytes(12);
    const chars = [...bytes].map((b) => alphabet[b % alphabet.length]);
    return [0, 4, 8].map((at) => chars.slice(at, at + 4).join('')).join('-');
  });
}

/** Typed codes compare without case, spaces or dashes. */
export function normalizeRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[\s-]+/g, '');
}

export function hashRecoveryCode(code: string): string {
  return createHash('sha256')
    .update(`formgate:recovery:${normalizeRecoveryCode(code)}`)
    .digest('hex');
}

/** Whether two hex hashes are equal, in constant time. */
export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}
