import { parseExpiry } from './key-expiry.js';

describe('parseExpiry', () => {
  it('reads a date (midnight UTC) or a date and time with its zone', () => {
    expect(parseExpiry('2026-12-31')?.toISOString()).toBe(
      '2026-12-31T00:00:00.000Z',
    );
    expect(parseExpiry(' 2026-12-31T23:59:59Z ')?.toISOString()).toBe(
      '2026-12-31T23:59:59.000Z',
    );
    expect(parseExpiry('2026-12-31T10:00:00.5+02:00')?.toISOString()).toBe(
      '2026-12-31T08:00:00.500Z',
    );
  });

  it('refuses a time without a zone, a day that does not exist, and anything else', () => {
    for (const bad of [
      '2026-12-31T10:00:00',
      '2026-02-30',
      '2026-13-01',
      '2026-12-31T25:00:00Z',
      'tomorrow',
      '1767225599',
      '',
    ]) {
      expect(parseExpiry(bad)).toBeUndefined();
    }
  });
});
