import { describe, expect, it } from 'vitest';
import { DOWNLOAD_LINK_SECONDS, DownloadLinks } from './download-links.js';

const SECRET = 'a-test-secret-that-is-long-enough-0123456789';
const FILE_ID = 'Zx3_k-9aQm1bC2dE3fG4hA';

describe('DownloadLinks', () => {
  const links = new DownloadLinks(SECRET, 'https://forms.example.com/');
  const now = new Date('2026-11-25T10:00:00Z');

  it('makes a link under PUBLIC_URL/files/ that names its file for 7 days', () => {
    const url = links.url(FILE_ID, now);
    expect(url).toMatch(
      /^https:\/\/forms\.example\.com\/files\/Zx3_k-9aQm1bC2dE3fG4hA\.[0-9a-z]+\.[A-Za-z0-9_-]{22}$/,
    );
    const token = url.split('/files/')[1];
    expect(links.verify(token, now)).toBe(FILE_ID);
    const lastSecond = new Date(
      now.getTime() + (DOWNLOAD_LINK_SECONDS - 1) * 1000,
    );
    expect(links.verify(token, lastSecond)).toBe(FILE_ID);
    const expired = new Date(now.getTime() + DOWNLOAD_LINK_SECONDS * 1000);
    expect(links.verify(token, expired)).toBeUndefined();
  });

  it('refuses a link changed to another file or a later expiry, or signed with another secret', () => {
    const token = links.token(FILE_ID, now);
    const [, expires, signature] = token.split('.');
    expect(
      links.verify(`AAAAAAAAAAAAAAAAAAAAAA.${expires}.${signature}`, now),
    ).toBeUndefined();
    const later = (parseInt(expires, 36) + 3600).toString(36);
    expect(
      links.verify(`${FILE_ID}.${later}.${signature}`, now),
    ).toBeUndefined();
    const other = new DownloadLinks(
      `${SECRET}-rotated`,
      'https://forms.example.com',
    );
    expect(other.verify(token, now)).toBeUndefined();
    expect(other.verify(other.token(FILE_ID, now), now)).toBe(FILE_ID);
  });

  it('refuses another spelling of the signature that decodes to the same bytes', () => {
    const token = links.token(FILE_ID, now);
    const ALPHABET =
      'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = ALPHABET.indexOf(token.at(-1)!);
    // 22 characters carry 132 bits for 128: the last one's two low bits are unused.
    const variants = [1, 2, 3].map(
      (bits) => token.slice(0, -1) + ALPHABET[last ^ bits],
    );
    for (const variant of variants) {
      expect(Buffer.from(variant.split('.')[2], 'base64url')).toEqual(
        Buffer.from(token.split('.')[2], 'base64url'),
      );
      expect(links.verify(variant, now)).toBeUndefined();
    }
    expect(links.verify(token, now)).toBe(FILE_ID);
  });

  it('refuses malformed tokens without throwing', () => {
    for (const token of [
      '',
      FILE_ID,
      `${FILE_ID}..`,
      `${FILE_ID}.zz.short`,
      `../${FILE_ID}.1.AAAAAAAAAAAAAAAAAAAAAA`,
      `${FILE_ID}.1.AAAAAAAAAAAAAAAAAAAAAA.extra`,
      'x'.repeat(5000),
    ]) {
      expect(links.verify(token, now)).toBeUndefined();
    }
    expect(() => links.token('../etc', now)).toThrow('not a file id');
  });
});
