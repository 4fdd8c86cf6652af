import { describe, expect, it } from 'vitest';
import {
  challengeOf,
  passkeyWarning,
  relyingPartyOf,
} from './webauthn-party.js';

describe('relyingPartyOf', () => {
  it('is PUBLIC_URL’s host and origin', () => {
    expect(relyingPartyOf('https://forms.example.com')).toEqual({
      id: 'forms.example.com',
      origin: 'https://forms.example.com',
      name: 'Formgate',
    });
    expect(relyingPartyOf('http://localhost:3000')?.origin).toBe(
      'http://localhost:3000',
    );
  });

  it('is none for an IP address, and the start line says so', () => {
    expect(relyingPartyOf('http://192.0.2.7:3000')).toBeNull();
    expect(relyingPartyOf('http://[::1]:3000')).toBeNull();
    expect(passkeyWarning('http://192.0.2.7:3000')).toContain('IP address');
    expect(passkeyWarning('https://forms.example.com')).toBeNull();
  });
});

describe('challengeOf', () => {
  it('reads the challenge from the client data, and nothing from junk', () => {
    const clientDataJSON = Buffer.from(
      JSON.stringify({ type: 'webauthn.get', challenge: 'abc123' }),
    ).toString('base64url');
    expect(challengeOf({ response: { clientDataJSON } })).toBe('abc123');
    expect(
      challengeOf({ response: { clientDataJSON: 'not json' } }),
    ).toBeNull();
    expect(challengeOf(null)).toBeNull();
    expect(challengeOf({ response: 5 })).toBeNull();
  });
});
