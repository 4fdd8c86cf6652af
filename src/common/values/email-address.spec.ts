import { isEmailAddress, MAX_EMAIL_ADDRESS_LENGTH } from './email-address.js';

// The one rule for an address: submitted email fields, recipients, accounts, erasure.
describe('isEmailAddress', () => {
  it('accepts name@domain.tld addresses', () => {
    for (const good of ['ada@example.com', 'a.b+c@mail.example.co.uk']) {
      expect(isEmailAddress(good)).toBe(true);
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
      'ada@example.com\r\nBcc: x@example.com',
    ]) {
      expect(isEmailAddress(bad)).toBe(false);
    }
  });

  it('refuses an over-long address before the pattern looks at it', () => {
    const long = `${'a'.repeat(MAX_EMAIL_ADDRESS_LENGTH)}@example.com`;
    expect(isEmailAddress(long)).toBe(false);
  });

  it('decides "a@" + 99,000 dots + "@", and a near miss at the limit, in linear time', () => {
    const started = performance.now();
    expect(isEmailAddress(`a@${'.'.repeat(99_000)}@`)).toBe(false);
    expect(isEmailAddress(`a@${'a.'.repeat(125)}`)).toBe(false);
    expect(performance.now() - started).toBeLessThan(100);
  });
});
