import { withoutTrailingSlashes } from './trailing-slashes.js';

describe('withoutTrailingSlashes', () => {
  it('drops every slash at the end and nothing else', () => {
    expect(withoutTrailingSlashes('https://example.com///')).toBe(
      'https://example.com',
    );
    expect(withoutTrailingSlashes('https://example.com/a/b')).toBe(
      'https://example.com/a/b',
    );
    expect(withoutTrailingSlashes('///')).toBe('');
    expect(withoutTrailingSlashes('')).toBe('');
  });

  it('walks a long run of slashes that does not end the text in linear time', () => {
    const text = `${'/'.repeat(200_000)}x`;
    expect(withoutTrailingSlashes(text)).toBe(text);
  });
});
