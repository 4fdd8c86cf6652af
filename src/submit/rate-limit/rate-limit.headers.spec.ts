import { rateLimitHeaders } from './rate-limit.headers.js';

describe('rateLimitHeaders', () => {
  it('writes the X-RateLimit trio and the IETF fields', () => {
    expect(
      rateLimitHeaders({
        limit: 10,
        windowSeconds: 60,
        remaining: 3,
        resetSeconds: 42,
      }),
    ).toEqual({
      'x-ratelimit-limit': '10',
      'x-ratelimit-remaining': '3',
      'x-ratelimit-reset': '42',
      'ratelimit-policy': '"submit";q=10;w=60',
      ratelimit: '"submit";r=3;t=42',
    });
  });

  it('adds Retry-After when refusing, never a negative remainder', () => {
    expect(
      rateLimitHeaders(
        { limit: 10, windowSeconds: 60, remaining: -4, resetSeconds: 7 },
        true,
      ),
    ).toMatchObject({
      'x-ratelimit-remaining': '0',
      ratelimit: '"submit";r=0;t=7',
      'retry-after': '7',
    });
  });
});
