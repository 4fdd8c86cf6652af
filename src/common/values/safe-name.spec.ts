import { safeName } from './safe-name.js';

describe('safeName', () => {
  it.each([
    ['a\r\nreal.txt', 'areal.txt'],
    ['tab\there.txt', 'tabhere.txt'],
    ['nul\u0000del\u007f.txt', 'nuldel.txt'],
    ['c1\u0085\u009b.txt', 'c1.txt'],
    ['inv\u202eexe.txt', 'invexe.txt'],
    ['\u202a\u202b\u202c\u202d\u202ex.png', 'x.png'],
    ['\u2066\u2067\u2068\u2069y.png', 'y.png'],
    ['\u200e\u200fz\u061c.png', 'z.png'],
    ['line\u2028para\u2029.txt', 'linepara.txt'],
    ['zero\u200bwidth\ufeff.txt', 'zerowidth.txt'],
  ])('drops the controls and direction marks of %j', (sent, kept) => {
    expect(safeName(sent)).toBe(kept);
  });

  it('keeps every other character, letters of any script and emoji included', () => {
    for (const name of [
      'naïve café ☕.png',
      'שלום.pdf',
      'مرحبا.txt',
      '../a b.txt',
    ]) {
      expect(safeName(name)).toBe(name);
    }
  });
});
