import { TOTP, Secret } from 'otpauth';
import { describe, expect, it } from 'vitest';
import {
  hashRecoveryCode,
  newRecoveryCodes,
  newTotpSecret,
  sameHash,
  totpCodeStep,
  totpStep,
  totpUri,
} from './totp.js';

const codeAt = (secret: string, timestamp: number) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp });

describe('TOTP', () => {
  const secret = newTotpSecret();
  const now = Date.UTC(2026, 11, 2, 3, 0, 10);

  it('accepts the current code and names its step', () => {
    expect(totpCodeStep(secret, codeAt(secret, now), now)).toBe(totpStep(now));
  });

  it('accepts one step either side and no further', () => {
    expect(totpCodeStep(secret, codeAt(secret, now - 30_000), now)).toBe(
      totpStep(now) - 1,
    );
    expect(totpCodeStep(secret, codeAt(secret, now + 30_000), now)).toBe(
      totpStep(now) + 1,
    );
    expect(totpCodeStep(secret, codeAt(secret, now - 90_000), now)).toBeNull();
  });

  it('refuses what is not six digits', () => {
    expect(totpCodeStep(secret, 'abcdef', now)).toBeNull();
    expect(totpCodeStep(secret, '1234567', now)).toBeNull();
  });

  it('writes an otpauth address with SHA-1, 6 digits and 30 s', () => {
    const uri = totpUri(secret, 'ana@example.com', 'Formgate');
    expect(uri).toContain('otpauth://totp/Formgate:ana%40example.com?');
    expect(uri).toContain('algorithm=SHA1');
    expect(uri).toContain('digits=6');
    expect(uri).toContain('period=30');
    expect(uri).toContain(`secret=${secret}`);
  });
});

describe('recovery codes', () => {
  it('makes ten distinct codes', () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) {
      expect(code).toMatch(/^[a-z2-9]{4}(-[a-z2-9]{4}){2}$/);
    }
  });

  it('hashes typed codes alike whatever their case, spaces or dashes', () => {
    const [code] = newRecoveryCodes(1);
    const typed = code.toUpperCase().replace(/-/g, ' ');
    expect(sameHash(hashRecoveryCode(typed), hashRecoveryCode(code))).toBe(
      true,
    );
    expect(hashRecoveryCode(code)).not.toContain(code.replace(/-/g, ''));
  });
});
