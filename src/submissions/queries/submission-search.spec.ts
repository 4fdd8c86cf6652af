import {
  likeContains,
  mysqlSearchPattern,
  valuesContain,
} from './submission-search.js';

describe('q search helpers', () => {
  it('escapes LIKE wildcards and the escape character', () => {
    expect(likeContains('100%_a!b')).toBe('%100!%!_a!!b%');
  });

  it('spells the needle as it appears inside stored JSON', () => {
    expect(mysqlSearchPattern('Say "Hi"')).toBe('%say \\"hi\\"%');
    expect(mysqlSearchPattern('C:\\temp')).toBe('%c:\\\\temp%');
    expect(mysqlSearchPattern('a\nb')).toBe('%a\\nb%');
  });

  it('matches values, not keys, ignoring case (Unicode included)', () => {
    const data = JSON.stringify({ email: 'X@Example.com', name: 'Jürgen' });
    expect(valuesContain(data, 'example')).toBe(true);
    expect(valuesContain(data, 'jürgen')).toBe(true);
    expect(valuesContain(data, 'email')).toBe(false);
  });

  it('matches numbers and booleans by their JSON spelling', () => {
    expect(valuesContain({ age: 42, ok: true }, '42')).toBe(true);
    expect(valuesContain({ age: 42, ok: true }, 'true')).toBe(true);
  });

  it('is false for text that is not a JSON object', () => {
    expect(valuesContain('not json', 'not')).toBe(false);
    expect(valuesContain('"a string"', 'a')).toBe(false);
  });
});
