import type { AppConfig } from '../config/app-config.js';
import { SecretBoxService } from './secret-box.service.js';

const box = (secret: string) =>
  new SecretBoxService({ appSecret: secret } as AppConfig);

describe('SecretBoxService', () => {
  const secret = 'a'.repeat(32);

  it('round-trips a key and never shows it in the sealed value', () => {
    const key = 'fgk_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG';
    const sealed = box(secret).encrypt(key);
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain(key.slice(4));
    expect(sealed.length).toBeLessThanOrEqual(255);
    expect(box(secret).decrypt(sealed)).toBe(key);
  });

  it('seals the same key differently each time', () => {
    expect(box(secret).encrypt('x')).not.toBe(box(secret).encrypt('x'));
  });

  it('refuses a tampered value and another secret', () => {
    const sealed = box(secret).encrypt('fgk_key');
    const parts = sealed.split('.');
    const data = Buffer.from(parts[3], 'base64url');
    data[0] ^= 1;
    parts[3] = data.toString('base64url');
    expect(() => box(secret).decrypt(parts.join('.'))).toThrow();
    expect(() => box('b'.repeat(32)).decrypt(sealed)).toThrow();
    expect(() => box(secret).decrypt('garbage')).toThrow(
      'Unrecognised encrypted value',
    );
  });
});
