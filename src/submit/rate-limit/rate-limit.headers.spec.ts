import { RateLimitFields } from './rate-limit.headers.js';

/** The fields as they land on a reply, in the order they were set. */
function written(
  limit: number,
  windowSeconds: number,
  remaining: number,
  resetSeconds: number,
  refused?: boolean,
): [string, string][] {
  const headers: [string, string][] = [];
  new RateLimitFields(limit, windowSeconds).write(
    { header: (name, value) => headers.push([name, value]) },
    remaining,
    resetSeconds,
    refused,
  );
  return headers;
}

describe('RateLimitFields', () => {
  it('writes the X-RateLimit trio and the IETF fields', () => {
    expect(written(10, 60, 3, 42)).toEqual([
      ['x-ratelimit-limit', '10'],
      ['x-ratelimit-remaining', '3'],
      ['x-ratelimit-reset', '42'],
      ['ratelimit-policy', '"submit";q=10;w=60'],
      ['ratelimit', '"submit";r=3;t=42'],
    ]);
  });

  it('adds Retry-After when refusing, never a negative remainder', () => {
    expect(Object.fromEntries(written(10, 60, -4, 7, true))).toMatchObject({
      'x-ratelimit-remaining': '0',
      ratelimit: '"submit";r=0;t=7',
      'retry-after': '7',
    });
  });

  it('writes the same limit and policy for every request of one limit', () => {
    const fields = new RateLimitFields(5, 30);
    const first: Record<string, string> = {};
    const second: Record<string, string> = {};
    fields.write({ header: (n, v) => (first[n] = v) }, 4, 30);
    fields.write({ header: (n, v) => (second[n] = v) }, 3, 29);
    expect(first['ratelimit-policy']).toBe('"submit";q=5;w=30');
    expect(second['ratelimit-policy']).toBe(first['ratelimit-policy']);
    expect(second['x-ratelimit-limit']).toBe('5');
    expect(second.ratelimit).toBe('"submit";r=3;t=29');
  });
});
