import {
  EMAIL_PATTERN,
  isPlausibleEmail,
  MAX_EMAIL_LENGTH,
} from './accounts.service.js';

describe('isPlausibleEmail', () => {
  it('accepts name@domain.tld addresses', () => {
    for (const good of ['ada@example.com', 'a.b+c@mail.example.co.uk']) {
      expect(isPlausibleEmail(good)).toBe(true);
    }
  });

  it('refuses addresses without a dotted domain, with empty labels or spaces', () => {
    for (const bad of [
      'ada',
      'ada@example',
      'ada@@example.com',
      'ada@.example.com',
      'ada@example..com',
      'ada@example.com.',
      'a da@example.com',
    ]) {
      expect(isPlausibleEmail(bad)).toBe(false);
    }
  });

  it('refuses an over-long address before the pattern looks at it', () => {
    const long = `${'a'.repeat(MAX_EMAIL_LENGTH)}@example.com`;
    expect(isPlausibleEmail(long)).toBe(false);
  });

  it('decides "a@" + 99,000 dots + "@" in linear time', () => {
    const started = performance.now();
    expect(isPlausibleEmail(`a@${'.'.repeat(99_000)}@`)).toBe(false);
    // The length check answers first; the pattern alone is linear too.
    expect(EMAIL_PATTERN.test(`a@${'.'.repeat(99_000)}@`)).toBe(false);
    expect(performance.now() - started).toBeLessThan(100);
  });
});
