import { DEFAULT_SPAM_FILTER } from '../forms/settings/spam-settings.js';
import {
  compileContentRules,
  containsBlocked,
  countLinks,
} from './content-rules.js';

const rules = (settings: Partial<typeof DEFAULT_SPAM_FILTER> = {}) =>
  compileContentRules({ ...DEFAULT_SPAM_FILTER, ...settings })!;

describe('content rules', () => {
  it('counts http, https and www links, once each', () => {
    expect(countLinks('see http://a.example and https://b.example', 10)).toBe(
      2,
    );
    expect(countLinks('https://www.example.com/x', 10)).toBe(1);
    expect(countLinks('WWW.Example.com and HTTPS://x.example', 10)).toBe(2);
  });

  it('does not count bare domains, email addresses or words that contain www', () => {
    expect(countLinks('example.com, mail me at ann@www.example.com', 10)).toBe(
      0,
    );
    expect(countLinks('awww.cute and xhttp://nope', 10)).toBe(0);
  });

  it('stops counting once past the limit', () => {
    expect(countLinks('http://a '.repeat(1000), 3)).toBe(4);
  });

  it('finds more links than maxLinks across all values', () => {
    const check = rules({ maxLinks: 2 }).check;
    expect(check({ a: 'http://a.example', b: 'www.b.example' })).toEqual([]);
    expect(
      check({ a: 'http://a.example', b: 'www.b.example https://c.example' }),
    ).toEqual(['too-many-links']);
    expect(rules({ maxLinks: 0 }).check({ a: 'www.x.example' })).toEqual([
      'too-many-links',
    ]);
  });

  it('finds blocked words as whole words, case-insensitively, phrases included', () => {
    const check = rules({ blockedWords: ['Casino', 'cheap  pills'] }).check;
    expect(check({ m: 'Best CASINO in town' })).toEqual(['blocked-word']);
    expect(check({ m: 'casino!' })).toEqual(['blocked-word']);
    expect(check({ m: 'buy cheap\npills now' })).toEqual(['blocked-word']);
    expect(check({ m: 'casinos and occasinoal' })).toEqual([]);
    expect(check({ n: 42, b: true })).toEqual([]);
  });

  it('treats letters of every script as word characters', () => {
    expect(containsBlocked('ñcasino', ['casino'])).toBe(false);
    expect(containsBlocked('😀casino😀', ['casino'])).toBe(true);
    expect(containsBlocked('Straße', ['stra'])).toBe(false);
    expect(containsBlocked('die STRASSE', ['straße'])).toBe(false);
    expect(containsBlocked('ÉTÉ chaud', ['été'])).toBe(true);
  });

  it('takes punctuation in a blocked entry as a space between words', () => {
    expect(containsBlocked('write an e-mail', ['e-mail'])).toBe(true);
    expect(containsBlocked('write an e mail', ['e-mail'])).toBe(true);
    expect(containsBlocked('!!!', ['!!!'])).toBe(false);
  });

  it('reports both reasons when both apply, and none when the filter is off', () => {
    const data = { m: 'casino http://a http://b http://c' };
    expect(
      rules({ maxLinks: 1, blockedWords: ['casino'] }).check(data),
    ).toEqual(['too-many-links', 'blocked-word']);
    expect(
      compileContentRules({ ...DEFAULT_SPAM_FILTER, enabled: false }),
    ).toBe(null);
  });
});
