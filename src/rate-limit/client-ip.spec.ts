import { normalizeClientIp, rateLimitBucket } from './client-ip.js';

describe('normalizeClientIp', () => {
  it('keeps plain IPv4 and IPv6 addresses', () => {
    expect(normalizeClientIp('203.0.113.7')).toBe('203.0.113.7');
    expect(normalizeClientIp('2001:db8::1')).toBe('2001:db8::1');
  });

  it('turns an IPv4-mapped IPv6 address into IPv4', () => {
    expect(normalizeClientIp('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(normalizeClientIp('::FFFF:cb00:7107')).toBe('203.0.113.7');
    expect(normalizeClientIp('0:0:0:0:0:ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('drops an IPv6 zone index', () => {
    expect(normalizeClientIp('fe80::1%eth0')).toBe('fe80::1');
  });

  it('answers null when there is no address', () => {
    expect(normalizeClientIp(undefined)).toBeNull();
    expect(normalizeClientIp('')).toBeNull();
  });
});

describe('rateLimitBucket', () => {
  it('counts an IPv4 client per address', () => {
    expect(rateLimitBucket('198.51.100.1')).toBe('198.51.100.1');
    expect(rateLimitBucket('198.51.100.2')).not.toBe(
      rateLimitBucket('198.51.100.1'),
    );
  });

  it('counts ::ffff:a.b.c.d as a.b.c.d', () => {
    expect(rateLimitBucket('::ffff:198.51.100.1')).toBe('198.51.100.1');
  });

  it('puts every address of one IPv6 /64 in the same bucket', () => {
    const bucket = rateLimitBucket('2001:db8:1:2::1');
    expect(bucket).toBe('2001:db8:1:2::/64');
    expect(rateLimitBucket('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe(bucket);
    expect(rateLimitBucket('2001:0DB8:0001:0002:abcd::9')).toBe(bucket);
  });

  it('separates different IPv6 /64 networks', () => {
    expect(rateLimitBucket('2001:db8:1:3::1')).not.toBe(
      rateLimitBucket('2001:db8:1:2::1'),
    );
  });

  it('handles compressed forms and the loopback address', () => {
    expect(rateLimitBucket('::1')).toBe('0:0:0:0::/64');
    expect(rateLimitBucket('2001:db8::')).toBe('2001:db8:0:0::/64');
  });

  it('keeps an address it cannot parse as its own bucket', () => {
    expect(rateLimitBucket('not-an-ip')).toBe('not-an-ip');
    expect(rateLimitBucket(undefined)).toBe('unknown');
  });

  it('answers the same for an address seen before, and after thousands of others', () => {
    const mapped = '::ffff:203.0.113.7';
    expect(rateLimitBucket(mapped)).toBe('203.0.113.7');
    expect(normalizeClientIp(mapped)).toBe('203.0.113.7');
    for (let i = 0; i < 5000; i += 1) {
      const v6 = `2001:db8:${(i % 65536).toString(16)}::${i.toString(16)}`;
      expect(rateLimitBucket(v6)).toBe(
        `2001:db8:${(i % 65536).toString(16)}:0::/64`,
      );
    }
    expect(rateLimitBucket(mapped)).toBe('203.0.113.7');
    expect(normalizeClientIp(mapped)).toBe('203.0.113.7');
    expect(normalizeClientIp(' 198.51.100.4 ')).toBe('198.51.100.4');
  });
});
