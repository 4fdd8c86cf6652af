import {
  decideOrigin,
  isDevelopmentHost,
  matchVerifiedDomain,
  normaliseDomain,
  siteHost,
} from './origin-policy.js';

describe('normaliseDomain', () => {
  it.each([
    ['example.com', 'example.com'],
    ['  Example.COM  ', 'example.com'],
    ['example.com.', 'example.com'],
    ['www.shop.example.co.uk', 'www.shop.example.co.uk'],
    ['bücher.de', 'xn--bcher-kva.de'],
    ['BÜCHER.DE', 'xn--bcher-kva.de'],
    ['xn--bcher-kva.de', 'xn--bcher-kva.de'],
    ['пример.рф', 'xn--e1afmkfd.xn--p1ai'],
    ['ａｂｃ．com', 'abc.com'],
    ['a-b.example', 'a-b.example'],
    ['123.example.com', '123.example.com'],
  ])('accepts %j as %j', (input, expected) => {
    expect(normaliseDomain(input)).toEqual({ ok: true, domain: expected });
  });

  it.each([
    ['', /must not be empty/],
    ['   ', /must not be empty/],
    ['https://example.com', /without https:\/\//],
    ['ftp://example.com', /without https:\/\//],
    ['example.com/contact', /without a path/],
    ['example.com?x=1', /without a path/],
    ['example.com#top', /without a path/],
    ['user@example.com', /user info/],
    ['example.com:8080', /port/],
    ['*.example.com', /wildcards/],
    ['localhost', /localhost names are development hosts/],
    ['app.localhost', /localhost names are development hosts/],
    ['127.0.0.1', /IP addresses/],
    ['192.168.1.10', /IP addresses/],
    ['::1', /IP addresses/],
    ['[::1]', /IP addresses/],
    ['2001:db8::1', /IP addresses/],
    ['1.2.3', /IP addresses/],
    ['0x7f.1', /IP addresses/],
    ['com', /bare top-level domain/],
    ['example', /bare top-level domain/],
    ['example.123', /not a valid host name|valid top-level domain/],
    ['example.c', /valid top-level domain/],
    ['example..com', /empty label/],
    ['example.com..', /empty label/],
    ['.example.com', /empty label|not a valid host name/],
    ['ex ample.com', /spaces/],
    ['under_score.com', /label "under_score"/],
    ['-bad.com', /label "-bad"/],
    ['bad-.com', /label "bad-"/],
    [`${'a'.repeat(64)}.com`, /label|not a valid host name/],
    [`${'abcdefghi.'.repeat(20)}com`, /at most 200 characters/],
    ['xn--zz.com', /not a valid host name/],
  ])('refuses %j', (input, problem) => {
    const result = normaliseDomain(input);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.problem).toMatch(problem);
  });
});

describe('isDevelopmentHost', () => {
  it.each([
    'localhost',
    'LOCALHOST',
    'localhost.',
    'app.localhost',
    'a.b.localhost',
    '127.0.0.1',
    '127.255.255.254',
    '192.168.0.1',
    '192.168.255.255',
    '::1',
    '[::1]',
    '[::ffff:7f00:1]',
    '::ffff:127.0.0.1',
    '[::ffff:c0a8:101]',
  ])('treats %j as a development host', (host) => {
    expect(isDevelopmentHost(host)).toBe(true);
  });

  it.each([
    'localhost.evil.com',
    'evillocalhost',
    'localhost-evil.com',
    'example.com',
    '128.0.0.1',
    '126.255.255.255',
    '192.169.0.1',
    '10.0.0.1',
    '172.16.0.1',
    '0.0.0.0',
    '[::2]',
    '[::ffff:808:808]',
    '[2001:db8::1]',
    '127.0.0.1.nip.io',
    '192.168.1.1.evil.com',
    '',
  ])('does not treat %j as a development host', (host) => {
    expect(isDevelopmentHost(host)).toBe(false);
  });
});

describe('matchVerifiedDomain', () => {
  const verified = new Set(['example.com', 'xn--bcher-kva.de']);

  it.each([
    ['example.com', 'example.com'],
    ['EXAMPLE.COM', 'example.com'],
    ['example.com.', 'example.com'],
    ['www.example.com', 'example.com'],
    ['a.b.example.com', 'example.com'],
    ['shop.xn--bcher-kva.de', 'xn--bcher-kva.de'],
  ])('matches %j to %j', (host, domain) => {
    expect(matchVerifiedDomain(host, verified)).toBe(domain);
  });

  it.each([
    'badexample.com',
    'example.com.evil.io',
    'example.co',
    'com',
    'example.comm',
    'bücher.de',
    '',
  ])('does not match %j', (host) => {
    expect(matchVerifiedDomain(host, verified)).toBeNull();
  });
});

describe('siteHost', () => {
  it('reads the host of Origin, ignoring scheme and port', () => {
    expect(siteHost({ origin: 'https://Shop.Example.com:8443' })).toEqual({
      kind: 'host',
      host: 'shop.example.com',
      header: 'Origin',
    });
  });

  it('prefers Origin over Referer', () => {
    expect(
      siteHost({
        origin: 'https://evil.io',
        referer: 'https://example.com/contact',
      }),
    ).toEqual({ kind: 'host', host: 'evil.io', header: 'Origin' });
  });

  it('falls back to Referer when Origin is absent, empty or "null"', () => {
    const expected = { kind: 'host', host: 'example.com', header: 'Referer' };
    const referer = 'https://example.com/contact?x=1#form';
    expect(siteHost({ referer })).toEqual(expected);
    expect(siteHost({ origin: '', referer })).toEqual(expected);
    expect(siteHost({ origin: 'null', referer })).toEqual(expected);
  });

  it('reports neither header as missing', () => {
    expect(siteHost({})).toEqual({ kind: 'missing' });
    expect(siteHost({ origin: 'null' })).toEqual({ kind: 'missing' });
    expect(siteHost({ origin: '  ', referer: '' })).toEqual({
      kind: 'missing',
    });
  });

  it('takes the real host of a URL with user info', () => {
    expect(siteHost({ referer: 'https://example.com@evil.io/' })).toEqual({
      kind: 'host',
      host: 'evil.io',
      header: 'Referer',
    });
  });

  it('ignores the path and query of Referer', () => {
    expect(siteHost({ referer: 'https://evil.com/?localhost' })).toEqual({
      kind: 'host',
      host: 'evil.com',
      header: 'Referer',
    });
    expect(
      siteHost({ referer: 'https://evil.com/example.com/page' }),
    ).toMatchObject({ host: 'evil.com' });
  });

  it('converts IDN hosts to punycode and strips a trailing dot', () => {
    expect(siteHost({ origin: 'https://BÜCHER.de.' })).toMatchObject({
      host: 'xn--bcher-kva.de',
    });
  });

  it('canonicalises IP hosts as a browser would', () => {
    expect(
      siteHost({ origin: 'http://[::ffff:127.0.0.1]:3000' }),
    ).toMatchObject({ host: '[::ffff:7f00:1]' });
    expect(siteHost({ origin: 'http://0x7f.1' })).toMatchObject({
      host: '127.0.0.1',
    });
  });

  it.each([
    [{ origin: 'not a url' }, 'Origin'],
    [{ origin: 'example.com' }, 'Origin'],
    [{ origin: 'file:///home/me/form.html' }, 'Origin'],
    [{ origin: 'chrome-extension://abcdef' }, 'Origin'],
    [{ origin: 'https://a.com, https://b.com' }, 'Origin'],
    [{ referer: '/relative/path' }, 'Referer'],
    [{ origin: 'garbage', referer: 'https://example.com/' }, 'Origin'],
  ])('reports %j as an invalid %s header', (headers, header) => {
    expect(siteHost(headers)).toEqual({ kind: 'invalid', header });
  });

  it('ignores header values that are not strings', () => {
    expect(siteHost({ origin: ['https://example.com'] })).toEqual({
      kind: 'missing',
    });
  });
});

describe('decideOrigin', () => {
  const verified = new Set(['example.com']);
  const load = vi.fn(() => Promise.resolve(verified));

  beforeEach(() => load.mockClear());

  it.each([
    { origin: 'https://example.com' },
    { origin: 'https://www.example.com:8443' },
    { referer: 'https://blog.example.com/post/1' },
    { origin: 'null', referer: 'https://example.com/' },
  ])('allows %j from a verified domain or its subdomain', async (headers) => {
    await expect(decideOrigin(headers, load)).resolves.toMatchObject({
      allowed: true,
      via: 'verified',
    });
  });

  it.each([
    'http://localhost:3000',
    'http://app.localhost',
    'http://127.0.0.1:8080',
    'http://127.1.2.3',
    'http://[::1]:5173',
    'http://[::ffff:127.0.0.1]',
    'http://192.168.1.20',
  ])(
    'lets development host %s through without loading domains',
    async (origin) => {
      await expect(decideOrigin({ origin }, load)).resolves.toMatchObject({
        allowed: true,
        via: 'development',
      });
      expect(load).not.toHaveBeenCalled();
    },
  );

  it.each([
    ['https://evil.io', 'evil.io'],
    ['https://example.com.evil.io', 'example.com.evil.io'],
    ['https://badexample.com', 'badexample.com'],
    ['https://localhost.evil.com', 'localhost.evil.com'],
    ['https://127.0.0.1.nip.io', '127.0.0.1.nip.io'],
    ['https://example.com@evil.io', 'evil.io'],
    ['http://10.0.0.5', '10.0.0.5'],
  ])('refuses %s, naming %s', async (origin, host) => {
    await expect(decideOrigin({ origin }, load)).resolves.toEqual({
      allowed: false,
      reason: `Submissions to this form are only accepted from its verified domains; ${host} is not one of them`,
    });
  });

  it('refuses a Referer whose query mentions localhost', async () => {
    await expect(
      decideOrigin({ referer: 'https://evil.com/?localhost' }, load),
    ).resolves.toEqual({
      allowed: false,
      reason:
        'Submissions to this form are only accepted from its verified domains; evil.com is not one of them',
    });
  });

  it('refuses a request with neither header', async () => {
    await expect(decideOrigin({}, load)).resolves.toEqual({
      allowed: false,
      reason:
        'Submissions to this form are only accepted from its verified domains: the request has no Origin or Referer header',
    });
    expect(load).not.toHaveBeenCalled();
  });

  it('refuses an Origin that is not an http(s) URL', async () => {
    await expect(
      decideOrigin({ origin: 'file:///tmp/x.html' }, load),
    ).resolves.toEqual({
      allowed: false,
      reason:
        'Submissions to this form are only accepted from its verified domains: the Origin header is not an http(s) URL',
    });
  });

  it('shortens a very long host in the reason', async () => {
    const host = `${'a'.repeat(60)}.${'b'.repeat(60)}.com`;
    const decision = await decideOrigin({ origin: `https://${host}` }, load);
    expect(decision).toEqual({
      allowed: false,
      reason: `Submissions to this form are only accepted from its verified domains; ${host.slice(0, 100)}… is not one of them`,
    });
  });

  it('refuses everything but development hosts when no domain is verified', async () => {
    const none = () => new Set<string>();
    await expect(
      decideOrigin({ origin: 'https://example.com' }, none),
    ).resolves.toMatchObject({ allowed: false });
    await expect(
      decideOrigin({ origin: 'http://localhost:8080' }, none),
    ).resolves.toMatchObject({ allowed: true });
  });
});
