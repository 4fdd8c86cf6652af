import {
  isNavigation,
  mediaTypeOf,
  redirectTarget,
  type RedirectPolicy,
} from './submit-navigation.js';

const FORM = 'application/x-www-form-urlencoded';
const BROWSER_ACCEPT =
  'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

describe('isNavigation', () => {
  it('is true for a navigating browser posting a form, multipart or text/plain body', () => {
    for (const type of [
      FORM,
      'multipart/form-data; boundary=x',
      'text/plain;charset=UTF-8',
    ]) {
      expect(
        isNavigation({ 'content-type': type, 'sec-fetch-mode': 'navigate' }),
      ).toBe(true);
    }
  });

  it('trusts Fetch Metadata over Accept when it is sent', () => {
    expect(
      isNavigation({
        'content-type': FORM,
        'sec-fetch-mode': 'cors',
        accept: BROWSER_ACCEPT,
      }),
    ).toBe(false);
    expect(
      isNavigation({
        'content-type': FORM,
        'sec-fetch-mode': 'navigate',
        accept: 'application/json',
      }),
    ).toBe(true);
  });

  it('falls back to an HTML-first Accept without JSON', () => {
    const accept = (value: string) =>
      isNavigation({ 'content-type': FORM, accept: value });
    expect(accept(BROWSER_ACCEPT)).toBe(true);
    expect(accept('TEXT/HTML; q=1')).toBe(true);
    expect(accept('text/html, application/json')).toBe(false);
    expect(accept('*/*')).toBe(false);
    expect(accept('application/xhtml+xml, text/html')).toBe(false);
    expect(isNavigation({ 'content-type': FORM })).toBe(false);
  });

  it('is never true for JSON or a body without a type', () => {
    expect(
      isNavigation({
        'content-type': 'application/json',
        'sec-fetch-mode': 'navigate',
      }),
    ).toBe(false);
    expect(isNavigation({ 'sec-fetch-mode': 'navigate' })).toBe(false);
  });
});

describe('mediaTypeOf', () => {
  it('drops parameters and case', () => {
    expect(mediaTypeOf(' Multipart/Form-Data ; boundary=X')).toBe(
      'multipart/form-data',
    );
    expect(mediaTypeOf(undefined)).toBeUndefined();
  });
});

describe('redirectTarget', () => {
  const policy = (
    redirectUrl: string | null,
    domains: string[] = [],
  ): RedirectPolicy => ({
    redirectUrl,
    redirectHost: redirectUrl === null ? null : new URL(redirectUrl).hostname,
    verifiedDomains: new Set(domains),
  });
  const body = (redirect: unknown) =>
    Object.assign(Object.create(null) as object, { _redirect: redirect });

  it('is redirectUrl, or null for the thank-you page, without _redirect', () => {
    expect(redirectTarget(policy('https://a.example/t'), {})).toBe(
      'https://a.example/t',
    );
    expect(redirectTarget(policy(null), undefined)).toBeNull();
  });

  it("honours _redirect on redirectUrl's host (any port) and on verified domains", () => {
    const p = policy('https://a.example/t', ['b.example']);
    expect(redirectTarget(p, body('http://a.example:81/x'))).toBe(
      'http://a.example:81/x',
    );
    expect(redirectTarget(p, body('https://deep.sub.b.example/'))).toBe(
      'https://deep.sub.b.example/',
    );
  });

  it('ignores anything else', () => {
    const p = policy('https://a.example/t', ['b.example']);
    for (const redirect of [
      'https://sub.a.example/',
      'https://evil.example/',
      'https://a.example@evil.example/',
      '//a.example/',
      'javascript:alert(1)',
      'https:\\\\a.example',
      ['https://a.example/1'],
      42,
    ]) {
      expect(redirectTarget(p, body(redirect)), String(redirect)).toBe(
        'https://a.example/t',
      );
    }
    expect(redirectTarget(policy(null), body('https://evil.example/'))).toBe(
      null,
    );
  });
});
