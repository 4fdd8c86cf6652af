// The submit rate limit: SUBMIT_RATE_LIMIT submissions per SUBMIT_RATE_WINDOW_SECONDS
// per client IP (defaults 10 / 60), headers on every response, TRUST_PROXY respected.
import { Submission } from '../../../src/submissions/submission.entity.js';
import { createAccount } from '../../factories/accounts.js';
import { createForm } from '../../factories/forms.js';
import { request, type HttpResponse } from '../../support/http.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

const VALID = { name: 'Ada', email: 'ada@example.com' };
const RECEIVED = { success: true, message: 'Submission received' };
const TOO_MANY =
  /^Too many submissions: at most 10 per 60 seconds from one address\. Retry in \d+ seconds\.$/;

function remaining(res: HttpResponse): number {
  return Number(res.headers.get('x-ratelimit-remaining'));
}

function expectRateLimitHeaders(res: HttpResponse, left: number): void {
  expect(res.headers.get('x-ratelimit-limit')).toBe('10');
  expect(res.headers.get('x-ratelimit-remaining')).toBe(String(left));
  const reset = Number(res.headers.get('x-ratelimit-reset'));
  expect(reset).toBeGreaterThanOrEqual(1);
  expect(reset).toBeLessThanOrEqual(60);
  expect(res.headers.get('ratelimit-policy')).toBe('"submit";q=10;w=60');
  expect(res.headers.get('ratelimit')).toBe(`"submit";r=${left};t=${reset}`);
  expect(res.headers.get('access-control-allow-origin')).toBe('*');
}

function expectRefused(res: HttpResponse): void {
  expect(res.status).toBe(429);
  expect(Object.keys(res.body)).toEqual(['error']);
  expect(res.body.error).toMatch(TOO_MANY);
  expectRateLimitHeaders(res, 0);
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(retryAfter).toBe(Number(res.headers.get('x-ratelimit-reset')));
  expect(res.body.error).toContain(`Retry in ${retryAfter} seconds.`);
}

describe('submit rate limit (e2e)', () => {
  describe('without TRUST_PROXY (the default)', () => {
    let t: TestApp;
    let formId: string;

    beforeAll(async () => {
      t = await createTestApp();
      const { account } = await createAccount(t);
      formId = (await createForm(t, account.id)).form.id;
    });
    afterAll(async () => {
      await t.close();
    });

    it('refuses the 11th request with 429 and Retry-After, even for an unknown form, and rotating X-Forwarded-For does not help', async () => {
      const url = `${t.url}/api/submit/${formId}`;
      const seen: number[] = [];
      for (let i = 0; i < 10; i += 1) {
        const res = await request(url, {
          json: VALID,
          headers: { 'x-forwarded-for': `198.51.100.${i + 1}` },
        });
        expect(res.status).toBe(200);
        expect(res.body).toEqual(RECEIVED);
        expectRateLimitHeaders(res, 9 - i);
        seen.push(remaining(res));
      }
      expect(seen).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);

      const eleventh = await request(url, {
        json: VALID,
        headers: { 'x-forwarded-for': '203.0.113.99' },
      });
      expectRefused(eleventh);

      // The limiter runs before the form lookup: no 404 for an unknown id.
      const unknown = await request(`${t.url}/api/submit/no-such-form`, {
        json: VALID,
      });
      expectRefused(unknown);

      const stored = await t.dataSource
        .getRepository(Submission)
        .findBy({ formId });
      expect(stored).toHaveLength(10);
      expect(new Set(stored.map((row) => row.ip))).toEqual(
        new Set(['127.0.0.1']),
      );
    });

    it('still answers the preflight of a client over its limit', async () => {
      const res = await request(`${t.url}/api/submit/${formId}`, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://site.example',
          'access-control-request-method': 'POST',
        },
      });
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
    });
  });

  describe('behind a trusted proxy (TRUST_PROXY=127.0.0.1)', () => {
    let t: TestApp;
    let formId: string;

    beforeAll(async () => {
      t = await createTestApp({ env: { TRUST_PROXY: '127.0.0.1' } });
      const { account } = await createAccount(t);
      formId = (await createForm(t, account.id)).form.id;
    });
    afterAll(async () => {
      await t.close();
    });

    const submit = (
      client: string,
      options: Parameters<typeof request>[1] = { json: VALID },
    ) =>
      request(`${t.url}/api/submit/${formId}`, {
        ...options,
        headers: { ...options.headers, 'x-forwarded-for': client },
      });

    async function spend(client: string, times: number): Promise<void> {
      for (let i = 0; i < times; i += 1) {
        const res = await submit(client);
        expect(res.status).toBe(200);
      }
    }

    it('counts each client address separately and stores the client address', async () => {
      await spend('192.0.2.10', 10);
      expectRefused(await submit('192.0.2.10'));
      const other = await submit('192.0.2.11');
      expect(other.status).toBe(200);
      expectRateLimitHeaders(other, 9);
      const rows = await t.dataSource
        .getRepository(Submission)
        .findBy({ formId, ip: '192.0.2.11' });
      expect(rows).toHaveLength(1);
    });

    it('counts ::ffff:a.b.c.d as a.b.c.d', async () => {
      await spend('::ffff:192.0.2.20', 5);
      await spend('192.0.2.20', 5);
      expectRefused(await submit('::ffff:192.0.2.20'));
      const rows = await t.dataSource
        .getRepository(Submission)
        .findBy({ formId, ip: '192.0.2.20' });
      expect(rows).toHaveLength(10);
    });

    it('gives one budget to a whole IPv6 /64', async () => {
      for (let i = 1; i <= 10; i += 1) {
        const res = await submit(`2001:db8:aa:bb::${i.toString(16)}`);
        expect(res.status).toBe(200);
        expectRateLimitHeaders(res, 10 - i);
      }
      expectRefused(await submit('2001:db8:aa:bb:ffff:1:2:3'));
      const neighbour = await submit('2001:db8:aa:bc::1');
      expect(neighbour.status).toBe(200);
      expectRateLimitHeaders(neighbour, 9);
    });

    it('does not count CORS preflights', async () => {
      for (let i = 0; i < 12; i += 1) {
        const res = await submit('192.0.2.30', {
          method: 'OPTIONS',
          headers: {
            origin: 'https://site.example',
            'access-control-request-method': 'POST',
            'access-control-request-headers': 'content-type',
          },
        });
        expect(res.status).toBe(204);
      }
      const res = await submit('192.0.2.30');
      expect(res.status).toBe(200);
      expectRateLimitHeaders(res, 9);
    });

    it('puts the headers on 404, 400, 413 and 415 too; refused bodies spend nothing', async () => {
      const client = '192.0.2.40';
      const notFound = await request(`${t.url}/api/submit/no-such-form`, {
        json: VALID,
        headers: { 'x-forwarded-for': client },
      });
      expect(notFound.status).toBe(404);
      expect(notFound.body).toEqual({ error: 'Form not found' });
      expectRateLimitHeaders(notFound, 9);

      const invalid = await submit(client, { json: { name: 'A' } });
      expect(invalid.status).toBe(400);
      expectRateLimitHeaders(invalid, 8);

      const tooLarge = await submit(client, {
        json: { ...VALID, message: 'x'.repeat(200_000) },
      });
      expect(tooLarge.status).toBe(413);
      expect(tooLarge.body).toEqual({ error: 'Request body is too large' });
      expectRateLimitHeaders(tooLarge, 8);

      const unsupported = await submit(client, {
        body: 'name=A',
        headers: { 'content-type': 'text/plain' },
      });
      expect(unsupported.status).toBe(415);
      expectRateLimitHeaders(unsupported, 8);

      const accepted = await submit(client);
      expect(accepted.status).toBe(200);
      expectRateLimitHeaders(accepted, 7);
    });
  });

  describe('a short window', () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await createTestApp({
        env: { SUBMIT_RATE_LIMIT: '2', SUBMIT_RATE_WINDOW_SECONDS: '1' },
      });
    });
    afterAll(async () => {
      await t.close();
    });

    it('resets the count when the window is over', async () => {
      const { account } = await createAccount(t);
      const { form } = await createForm(t, account.id);
      const url = `${t.url}/api/submit/${form.id}`;
      expect((await request(url, { json: VALID })).status).toBe(200);
      expect((await request(url, { json: VALID })).status).toBe(200);
      const refused = await request(url, { json: VALID });
      expect(refused.status).toBe(429);
      expect(refused.headers.get('ratelimit-policy')).toBe('"submit";q=2;w=1');
      expect(refused.headers.get('retry-after')).toBe('1');
      // Waiting is the behaviour under test: Retry-After says how long.
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const again = await request(url, { json: VALID });
      expect(again.status).toBe(200);
      expect(again.headers.get('x-ratelimit-remaining')).toBe('1');
    });
  });
});
