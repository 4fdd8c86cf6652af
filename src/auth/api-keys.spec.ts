import { createHash } from 'node:crypto';
import {
  apiKeyKind,
  DISPLAY_PREFIX_LENGTH,
  generateApiKey,
  generateFormId,
  hashApiKey,
} from './api-keys.js';

describe('API keys', () => {
  it('generates form and account keys with distinguishable prefixes', () => {
    const form = generateApiKey('form');
    const account = generateApiKey('account');
    expect(form.key).toMatch(/^fgk_[A-Za-z0-9_-]{43}$/);
    expect(account.key).toMatch(/^fga_[A-Za-z0-9_-]{43}$/);
    expect(apiKeyKind(form.key)).toBe('form');
    expect(apiKeyKind(account.key)).toBe('account');
    expect(apiKeyKind('sk_live_123')).toBeUndefined();
  });

  it('stores a SHA-256 hash and a short display prefix, never the key', () => {
    const { key, hash, prefix } = generateApiKey('form');
    expect(hash).toBe(createHash('sha256').update(key).digest('hex'));
    expect(hash).toBe(hashApiKey(key));
    expect(hash).not.toContain(key.slice(4));
    expect(prefix).toBe(key.slice(0, DISPLAY_PREFIX_LENGTH));
    expect(prefix.length).toBeLessThanOrEqual(16);
  });

  it('never repeats a key', () => {
    const keys = new Set(
      Array.from({ length: 1000 }, () => generateApiKey('form').key),
    );
    expect(keys.size).toBe(1000);
  });

  it('makes form ids of 128 random bits, URL-safe', () => {
    const ids = Array.from({ length: 1000 }, generateFormId);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(new Set(ids).size).toBe(1000);
    expect(Buffer.from(ids[0], 'base64url')).toHaveLength(16);
  });
});
