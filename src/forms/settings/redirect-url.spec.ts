import { bareHostname, parseAbsoluteHttpUrl } from './redirect-url.js';

describe('parseAbsoluteHttpUrl', () => {
  it('accepts absolute http(s) URLs, IP hosts and ports, and canonicalises them', () => {
    expect(
      parseAbsoluteHttpUrl('HTTPS://Example.COM/a b'.replace(' ', '%20'))?.href,
    ).toBe('https://example.com/a%20b');
    expect(parseAbsoluteHttpUrl('http://192.0.2.1:8080/x')?.host).toBe(
      '192.0.2.1:8080',
    );
    expect(parseAbsoluteHttpUrl('https://bücher.example/')?.hostname).toBe(
      'xn--bcher-kva.example',
    );
  });

  it.each([
    '',
    '/relative',
    '//evil.example',
    'https:evil.example',
    'https:/evil.example',
    'javascript:alert(1)',
    'ftp://example.com/',
    'https://user@example.com/',
    'https://:pw@example.com/',
    'https://example.com\\@evil.example',
    ' https://example.com',
    'https://exa\tmple.com',
    'https://example.com/\n',
    'https://',
    'https://[::1/',
  ])('refuses %j', (text) => {
    expect(parseAbsoluteHttpUrl(text)).toBeNull();
  });

  it('refuses values that are not strings', () => {
    expect(parseAbsoluteHttpUrl(null)).toBeNull();
    expect(parseAbsoluteHttpUrl(['https://example.com'])).toBeNull();
  });
});

describe('bareHostname', () => {
  it('drops a trailing dot', () => {
    expect(bareHostname(new URL('https://example.com./'))).toBe('example.com');
  });
});
