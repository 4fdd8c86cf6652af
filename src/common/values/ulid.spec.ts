import { decodeTime, isValid } from 'ulid';
import { newUlid, ulidTime } from './ulid.js';

describe('newUlid', () => {
  it('writes a valid ULID carrying the given time', () => {
    const at = Date.UTC(2026, 10, 23, 12, 34, 56, 789);
    const id = newUlid(at);
    expect(id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(isValid(id)).toBe(true);
    expect(decodeTime(id)).toBe(at);
  });

  it('sorts ids of later milliseconds after earlier ones', () => {
    const earlier = newUlid(1_700_000_000_000);
    const later = newUlid(1_700_000_000_001);
    expect(later > earlier).toBe(true);
  });

  it('never repeats, also within one millisecond and across pool refills', () => {
    const ids = new Set<string>();
    for (let i = 0; i < 5000; i += 1) ids.add(newUlid(1_700_000_000_000));
    expect(ids.size).toBe(5000);
  });

  it('spreads the random part over the whole alphabet', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 500; i += 1) {
      for (const char of newUlid().slice(10)) seen.add(char);
    }
    expect(seen.size).toBe(32);
  });
});

describe('ulidTime', () => {
  it('reads back the time a ULID was made at', () => {
    const at = Date.UTC(2026, 11, 1, 21, 30, 15, 123);
    const id = newUlid(at);
    expect(ulidTime(id)).toBe(at);
    expect(ulidTime(id)).toBe(decodeTime(id));
  });

  it('is NaN for what is not a ULID', () => {
    expect(ulidTime('not-a-ulid!')).toBeNaN();
    expect(ulidTime('')).toBeNaN();
  });
});
