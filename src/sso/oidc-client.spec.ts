import { describe, expect, it } from 'vitest';
import { isLoopbackUrl, issuerUrlProblem } from './oidc-client.js';

describe('issuer URLs', () => {
  it('accepts https issuers, with or without a path', () => {
    expect(issuerUrlProblem('https://accounts.google.com')).toBeNull();
    expect(
      issuerUrlProblem('https://login.microsoftonline.com/tenant/v2.0'),
    ).toBeNull();
  });

  it('accepts plain http only for loopback hosts', () => {
    expect(issuerUrlProblem('http://127.0.0.1:8080')).toBeNull();
    expect(issuerUrlProblem('http://localhost:8080/realms/x')).toBeNull();
    expect(issuerUrlProblem('http://[::1]:8080')).toBeNull();
    expect(issuerUrlProblem('http://idp.example.com')).toContain('https://');
    expect(issuerUrlProblem('http://127.0.0.1.example.com')).toContain(
      'https://',
    );
  });

  it('refuses what is not an issuer address', () => {
    expect(issuerUrlProblem('accounts.google.com')).toContain('full address');
    expect(issuerUrlProblem('ftp://idp.example.com')).toContain('https://');
    expect(issuerUrlProblem('https://idp.example.com/?tenant=1')).toContain(
      'query',
    );
  });

  it('knows loopback hosts', () => {
    expect(isLoopbackUrl(new URL('http://127.8.9.10'))).toBe(true);
    expect(isLoopbackUrl(new URL('http://localhost.example.com'))).toBe(false);
    expect(isLoopbackUrl(new URL('http://10.0.0.1'))).toBe(false);
  });
});
