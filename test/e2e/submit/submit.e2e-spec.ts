// POST /api/submit/:formId against the real app: stored rows, the honeypot, unknown forms,
// content types and limits, CORS and the OpenAPI description. Validation, hostile keys and
// domain verification are in submit-checks.e2e-spec.ts. The rate limit itself is proven in
// submit-rate-limit.e2e-spec.ts; here it is set high so the many requests never meet it.
import { ulid } from 'ulid';
import { createAccount } from '../../factories/accounts.js';
import { createForm } from '../../factories/forms.js';
import { expectProblem } from '../../support/answers.js';
import { request } from '../../support/http.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import { expectRouteHeaders, submitApi } from '../../support/submit-route.js';

const RECEIVED = { success: true, message: 'Submission received' };
const UNSUPPORTED =
  'Unsupported content type: send application/json or application/x-www-form-urlencoded';

describe('POST /api/submit/:formId (e2e)', () => {
  let t: TestApp;
  let accountId: string;
  let formId: string;

  beforeAll(async () => {
    t = await createTestApp({ env: { SUBMIT_RATE_LIMIT: '100000' } });
    accountId = (await createAccount(t)).account.id;
    formId = (await createForm(t, accountId)).form.id;
  });
  afterAll(async () => {
    await t.close();
  });

  const { url, rows, countRows } = submitApi(
    () => t,
    () => formId,
  );

  describe('a valid submission is stored', () => {
    it('stores a form-encoded post with its metadata, committed before the 200', async () => {
      const before = Date.now();
      const res = await request(url(), {
        form: {
          name: 'Ada Lovelace',
          email: 'ada@example.com',
          message: 'Hello from a form',
          _honeypot: '',
        },
        headers: {
          'user-agent': 'FormTest/1.0',
          origin: 'https://www.example.org',
          referer: 'https://www.example.org/contact',
        },
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(RECEIVED);
      expectRouteHeaders(res);

      const [row] = await rows();
      expect(row.data).toEqual({
        name: 'Ada Lovelace',
        email: 'ada@example.com',
        message: 'Hello from a form',
      });
      expect(row.id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
      expect(row.ip).toBe('127.0.0.1');
      expect(row.userAgent).toBe('FormTest/1.0');
      expect(row.origin).toBe('https://www.example.org');
      expect(row.createdAt.getTime()).toBeGreaterThanOrEqual(
        Math.floor(before / 1000) * 1000,
      );
      expect(row.createdAt.getTime()).toBeLessThanOrEqual(Date.now());
    });

    it('stores a JSON post, the Referer as origin when there is no Origin', async () => {
      const res = await request(url(), {
        json: { name: 'Grace', email: 'grace@example.com' },
        headers: { referer: 'https://blog.example.net/post?id=1' },
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(RECEIVED);
      expectRouteHeaders(res);
      const stored = await rows();
      const row = stored[stored.length - 1];
      expect(row.data).toEqual({ name: 'Grace', email: 'grace@example.com' });
      expect(row.origin).toBe('https://blog.example.net/post?id=1');
    });

    it('gives ids that sort in submission order, with millisecond timestamps', async () => {
      const form = (await createForm(t, accountId)).form;
      for (const name of ['first', 'second', 'third']) {
        const res = await request(url(form.id), {
          json: { name, email: `${name}@example.com` },
        });
        expect(res.status).toBe(200);
      }
      const stored = await rows(form.id);
      expect(stored.map((row) => row.data.name)).toEqual([
        'first',
        'second',
        'third',
      ]);
      const ids = stored.map((row) => row.id);
      expect([...ids].sort()).toEqual(ids);
      expect(new Set(ids).size).toBe(3);
    });

    it('truncates an over-long user agent and origin to their columns', async () => {
      const form = (await createForm(t, accountId)).form;
      const res = await request(url(form.id), {
        json: { name: 'Long', email: 'long@example.com' },
        headers: {
          'user-agent': 'U'.repeat(2000),
          origin: `https://${'o'.repeat(3000)}.example`,
        },
      });
      expect(res.status).toBe(200);
      const [row] = await rows(form.id);
      expect(row.userAgent).toBe('U'.repeat(512));
      expect(row.origin).toHaveLength(1024);
    });

    it('stores values typed by field: numbers, booleans, trimmed formats', async () => {
      const form = (
        await createForm(t, accountId, {
          fields: [
            { id: 'age', type: 'number', required: true },
            { id: 'newsletter', type: 'checkbox' },
            { id: 'site', type: 'url' },
            { id: 'phone', type: 'tel' },
            { id: 'born', type: 'date' },
            { id: 'topic', type: 'select', options: ['sales', 'support'] },
          ],
        })
      ).form;
      const asForm = await request(url(form.id), {
        form: {
          age: '42',
          newsletter: 'on',
          site: ' https://example.com ',
          phone: '+44 20 7946 0958',
          born: '1815-12-10',
          topic: 'support',
        },
      });
      expect(asForm.status).toBe(200);
      const asJson = await request(url(form.id), {
        json: { age: 42, newsletter: false, topic: 'sales' },
      });
      expect(asJson.status).toBe(200);
      const stored = await rows(form.id);
      expect(stored.map((row) => row.data)).toEqual([
        {
          age: 42,
          newsletter: true,
          site: 'https://example.com',
          phone: '+44 20 7946 0958',
          born: '1815-12-10',
          topic: 'support',
        },
        { age: 42, newsletter: false, topic: 'sales' },
      ]);
    });

    it('accepts any keys on a form without fields, but never the control keys', async () => {
      const form = (await createForm(t, accountId, { fields: [] })).form;
      const res = await request(url(form.id), {
        form: { 'First name': 'Ada', Comment: 'Hi 👋', _next: '/thanks' },
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(RECEIVED);
      const [row] = await rows(form.id);
      expect(row.data).toEqual({ 'First name': 'Ada', Comment: 'Hi 👋' });
    });
  });

  describe('the honeypot', () => {
    it('answers the same 200 and stores nothing when _honeypot is filled', async () => {
      const form = (await createForm(t, accountId)).form;
      const asForm = await request(url(form.id), {
        form: { name: 'Bot', email: 'bot@spam.example', _honeypot: 'gotcha' },
      });
      expect(asForm.status).toBe(200);
      expect(asForm.body).toEqual(RECEIVED);
      expectRouteHeaders(asForm);
      // Even an otherwise invalid body: the trap is sprung before validation.
      const asJson = await request(url(form.id), {
        json: { nonsense: true, _honeypot: 'http://spam.example' },
      });
      expect(asJson.status).toBe(200);
      expect(asJson.body).toEqual(RECEIVED);
      expect(await countRows(form.id)).toBe(0);
    });

    it('stores the submission when _honeypot is present but empty', async () => {
      const form = (await createForm(t, accountId)).form;
      const res = await request(url(form.id), {
        form: { name: 'Human', email: 'human@example.com', _honeypot: '' },
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(RECEIVED);
      const [row] = await rows(form.id);
      expect(row.data).toEqual({ name: 'Human', email: 'human@example.com' });
    });
  });

  describe('unknown form', () => {
    it('answers 404 {error: "Form not found"} for an id that does not exist', async () => {
      for (const id of [
        'does-not-exist',
        ulid(),
        'x'.repeat(150),
        '%F0%9F%98%80',
      ]) {
        const res = await request(url(id), {
          json: { name: 'A', email: 'a@example.com' },
        });
        expectProblem(res, 404, 'Form not found');
        expectRouteHeaders(res);
      }
    });

    it('answers 404 before validating the body', async () => {
      const res = await request(url('nope'), { json: [1, 2, 3] });
      expectProblem(res, 404, 'Form not found');
    });
  });

  describe('content types and limits', () => {
    it.each([
      ['text/plain', 'name=A&email=a@example.com'],
      ['application/xml', '<form><name>A</name></form>'],
      ['text/xml', '<form><name>A</name></form>'],
    ])('answers %s with a 415 {error}', async (contentType, body) => {
      const before = await countRows();
      const res = await request(url(), {
        headers: { 'content-type': contentType },
        body,
      });
      expectProblem(res, 415, { error: UNSUPPORTED });
      expectRouteHeaders(res);
      expect(await countRows()).toBe(before);
    });

    it('answers a body over SUBMIT_BODY_LIMIT with a 413 {error}', async () => {
      const res = await request(url(), {
        json: {
          name: 'A',
          email: 'a@example.com',
          message: 'x'.repeat(110_000),
        },
      });
      expectProblem(res, 413, 'Request body is too large');
      expectRouteHeaders(res);
    });

    it('answers malformed JSON with a 400 {error}', async () => {
      const res = await request(url(), {
        headers: { 'content-type': 'application/json' },
        body: '{"name": ',
      });
      expectProblem(res, 400, 'Request body is not valid JSON');
      expectRouteHeaders(res);
    });

    it('treats a post without a body as an empty submission', async () => {
      const res = await request(url(), { method: 'POST' });
      expectProblem(res, 400, {
        error: 'Validation failed',
        errors: ['name is required', 'email is required'],
      });
      expectRouteHeaders(res);
    });
  });

  describe('CORS on this route only', () => {
    it('answers the preflight with 204 and the allowed method and headers', async () => {
      const res = await request(url(), {
        method: 'OPTIONS',
        headers: {
          origin: 'https://any-site.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type',
        },
      });
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-allow-methods')).toBe(
        'POST, OPTIONS',
      );
      expect(res.headers.get('access-control-allow-headers')).toMatch(
        /(^|, )Content-Type(,|$)/,
      );
      expect(res.headers.get('access-control-max-age')).toBe('86400');
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    });

    it('sends no CORS headers on /api/v1, /docs, /health or the dashboard', async () => {
      const origin = { origin: 'https://any-site.example' };
      for (const path of [
        '/api/v1/forms',
        '/docs',
        '/docs-json',
        '/health/live',
        '/dashboard',
        '/api/submitx',
      ]) {
        const res = await request(`${t.url}${path}`, { headers: origin });
        expect(res.status, path).toBeLessThan(500);
        expect(res.headers.get('access-control-allow-origin'), path).toBeNull();
        expect(res.headers.get('x-ratelimit-limit'), path).toBeNull();
      }
      const preflight = await request(`${t.url}/api/v1/forms`, {
        method: 'OPTIONS',
        headers: { ...origin, 'access-control-request-method': 'POST' },
      });
      expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    });
  });

  describe('OpenAPI', () => {
    it('documents the three body types, every response and the rate-limit headers', async () => {
      const res = await request(`${t.url}/docs-json`);
      expect(res.status).toBe(200);
      const operation = res.body.paths['/api/submit/{formId}'].post;
      expect(Object.keys(operation.requestBody.content).sort()).toEqual([
        'application/json',
        'application/x-www-form-urlencoded',
        'multipart/form-data',
      ]);
      expect(Object.keys(operation.responses).sort()).toEqual([
        '200',
        '303',
        '400',
        '403',
        '404',
        '408',
        '409',
        '413',
        '415',
        '422',
        '429',
        '503',
      ]);
      for (const [status, response] of Object.entries<{
        headers: Record<string, unknown>;
        content: Record<string, { example?: unknown }>;
      }>(operation.responses)) {
        expect(Object.keys(response.headers), status).toEqual(
          expect.arrayContaining([
            'X-RateLimit-Limit',
            'X-RateLimit-Remaining',
            'X-RateLimit-Reset',
            'RateLimit',
            'RateLimit-Policy',
          ]),
        );
        // 303 is a browser's redirect: no body.
        if (status === '303') continue;
        expect(
          response.content['application/json'].example,
          status,
        ).toBeDefined();
      }
      expect(operation.responses['429'].headers['Retry-After']).toBeDefined();
      expect(
        operation.responses['200'].content['application/json'].example,
      ).toEqual(RECEIVED);
      expect(operation.security ?? []).toEqual([]);
    });
  });
});
