import {
  dataHoldsAddress,
  normalizeAddress,
  textHoldsAddress,
} from './address-match.js';

const ADA = normalizeAddress('  Ada@Example.COM ');

describe('textHoldsAddress', () => {
  it('finds the address alone or as a token of free text, whatever its case', () => {
    for (const text of [
      'ada@example.com',
      'ADA@EXAMPLE.COM',
      'Please write to Ada@Example.com, thanks',
      'Contact: <ada@example.com>',
      'mailto:ada@example.com',
      'ada@example.com.',
      '(ada@example.com)',
      'first line\nada@example.com\nlast line',
      'a@b.org;ada@example.com',
      'x ada@example.com... and then',
    ]) {
      expect(textHoldsAddress(text, ADA), text).toBe(true);
    }
  });

  it('refuses longer addresses that contain it', () => {
    for (const text of [
      'grandada@example.com',
      'ada@example.com.au',
      'ada@example.community',
      'ada@example.com-mail.net',
      'x.ada@example.com',
      'ada+x@example.com',
      'adä@example.com',
      'éada@example.com',
      '',
    ]) {
      expect(textHoldsAddress(text, ADA), text).toBe(false);
    }
  });

  it('finds a later whole occurrence after a partial one', () => {
    expect(
      textHoldsAddress('grandada@example.com and ada@example.com', ADA),
    ).toBe(true);
  });

  it('folds non-ASCII letters too', () => {
    expect(
      textHoldsAddress('ZOË@EXÄMPLE.COM', normalizeAddress('zoë@exämple.com')),
    ).toBe(true);
  });
});

describe('dataHoldsAddress', () => {
  it('looks at every value, nested ones included, and never at keys or numbers', () => {
    expect(
      dataHoldsAddress({ name: 'Ada', email: 'ADA@example.com' }, ADA),
    ).toBe(true);
    expect(
      dataHoldsAddress(
        { file: { name: 'cv (ada@example.com).pdf', size: 3 } },
        ADA,
      ),
    ).toBe(true);
    expect(dataHoldsAddress({ list: ['x', 'ada@example.com'] }, ADA)).toBe(
      true,
    );
    expect(dataHoldsAddress({ 'ada@example.com': 'x', n: 42 }, ADA)).toBe(
      false,
    );
    expect(dataHoldsAddress(null, ADA)).toBe(false);
  });
});
