// The checks of POST /api/submit/:formId: field validation, hostile keys and domain
// verification, against the real app. The rate limit is set high so it never interferes.
import { ulid } from 'ulid';
import { FormDomain } from '../../../src/domain-verification/form-domain.entity.js';
import { createAccount } from '../../factories/accounts.js';
import { createForm } from '../../factories/forms.js';
import { expectProblem } from '../../support/answers.js';
import { request, type HttpResponse } from '../../support/http.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import { expectRouteHeaders, submitApi } from '../../support/submit-route.js';

const RECEIVED = { success: true, message: 'Submission received' };

describe('POST /api/submit/:formId: validation and domains (e2e)', () => {
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

  describe('validation', () => {
    let before: number;
    beforeEach(async () => {
      before = await countRows();
    });
    afterEach(async () => {
      expect(await countRows()).toBe(before);
    });

    async function expectInvalid(
      res: HttpResponse,
      errors: string[],
    ): Promise<void> {
      expectProblem(res, 400, { error: 'Validation failed', errors });
      expectRouteHeaders(res);
      await Promise.resolve();
    }

    it('answers a missing required field and a bad email with two entries', async () => {
      const res = await request(url(), {
        form: { email: 'not-an-address', message: 'hi' },
      });
      await expectInvalid(res, [
        'name is required',
        'email must be a valid email address',
      ]);
    });

    it('treats a blank required field as missing (JSON too)', async () => {
      const res = await request(url(), {
        json: { name: '   ', email: 'a@example.com' },
      });
      await expectInvalid(res, ['name is required']);
    });

    it('refuses a key that is not a field id', async () => {
      const res = await request(url(), {
        json: { name: 'A', email: 'a@example.com', phone: '123' },
      });
      await expectInvalid(res, ['"phone" is not a field of this form']);
    });

    it('refuses a key that differs from a field id only in case', async () => {
      const res = await request(url(), {
        form: { name: 'A', Email: 'a@example.com' },
      });
      await expectInvalid(res, [
        'email is required',
        '"Email" is not a field of this form (field ids are case-sensitive: did you mean "email"?)',
      ]);
    });

    it('refuses a repeated form-encoded key', async () => {
      const res = await request(url(), {
        form: [
          ['name', 'A'],
          ['name', 'B'],
          ['email', 'a@example.com'],
        ],
      });
      await expectInvalid(res, [
        'name must be a single value, not a list (was the key sent more than once?)',
      ]);
    });

    it('refuses nested JSON values and a body that is not an object', async () => {
      const nested = await request(url(), {
        json: { name: { first: 'A' }, email: ['a@example.com'] },
      });
      await expectInvalid(nested, [
        'name must be a single value, not an object',
        'email must be a single value, not a list (was the key sent more than once?)',
      ]);
      const list = await request(url(), { json: [{ name: 'A' }] });
      await expectInvalid(list, [
        'the body must be a set of field names and values (a JSON object or a form post)',
      ]);
    });

    it('refuses a value longer than the field allows', async () => {
      const res = await request(url(), {
        json: { name: 'x'.repeat(5001), email: 'a@example.com' },
      });
      await expectInvalid(res, ['name must be at most 5000 characters long']);
    });

    it('refuses values of the wrong type', async () => {
      const form = (
        await createForm(t, accountId, {
          fields: [
            { id: 'age', type: 'number' },
            { id: 'site', type: 'url' },
            { id: 'born', type: 'date' },
            { id: 'topic', type: 'select', options: ['sales'] },
            { id: 'agree', type: 'checkbox', required: true },
          ],
        })
      ).form;
      const res = await request(url(form.id), {
        form: {
          age: 'old',
          site: 'javascript:alert(1)',
          born: '2023-02-30',
          topic: 'Sales',
          agree: 'false',
        },
      });
      expectProblem(res, 400, {
        error: 'Validation failed',
        errors: [
          'age must be a number',
          'site must be a URL starting with http:// or https://',
          'born must be a date written YYYY-MM-DD',
          'topic must be one of: sales',
          'agree must be checked',
        ],
      });
      expect(await countRows(form.id)).toBe(0);
    });

    it('refuses more than 100 keys on a form without fields', async () => {
      const form = (await createForm(t, accountId, { fields: [] })).form;
      const res = await request(url(form.id), {
        form: Array.from({ length: 101 }, (_, i): [string, string] => [
          `k${i}`,
          'v',
        ]),
      });
      expectProblem(res, 400, {
        error: 'Validation failed',
        errors: ['the submission has 101 fields; at most 100 are accepted'],
      });
      expect(await countRows(form.id)).toBe(0);
    });
  });

  describe('hostile keys', () => {
    it('refuses a JSON __proto__ key with a 400 and pollutes nothing', async () => {
      const before = await countRows();
      const res = await request(url(), {
        headers: { 'content-type': 'application/json' },
        body: '{"name":"A","email":"a@example.com","__proto__":{"polluted":true}}',
      });
      expect(res.status).toBe(400);
      expect(Object.keys(res.body)).toEqual(['error']);
      expect(res.body.error).toMatch(/forbidden key|not valid JSON/);
      expectRouteHeaders(res);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(await countRows()).toBe(before);
    });

    it('refuses a JSON constructor.prototype key with a 400', async () => {
      const res = await request(url(), {
        headers: { 'content-type': 'application/json' },
        body: '{"constructor":{"prototype":{"polluted":true}}}',
      });
      expect(res.status).toBe(400);
      expect(Object.keys(res.body)).toEqual(['error']);
      expectRouteHeaders(res);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    it('refuses a form-encoded __proto__ key with a 400 and pollutes nothing', async () => {
      const form = (await createForm(t, accountId, { fields: [] })).form;
      const res = await request(url(form.id), {
        body: '__proto__=x&comment=hi',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expectProblem(
        res,
        400,
        'Request body contains a forbidden key (__proto__ or constructor)',
      );
      expectRouteHeaders(res);
      expect(await countRows(form.id)).toBe(0);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    it('ignores bracketed __proto__ keys like any other control key', async () => {
      const form = (await createForm(t, accountId, { fields: [] })).form;
      const res = await request(url(form.id), {
        body: '__proto__%5Bpolluted%5D=1&constructor%5Bprototype%5D=2&comment=hi',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(RECEIVED);
      const [row] = await rows(form.id);
      expect(row.data).toEqual({
        'constructor[prototype]': '2',
        comment: 'hi',
      });
      expect(Object.getPrototypeOf(row.data)).toBe(Object.prototype);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    it('stores a constructor key of a form without fields as plain data', async () => {
      const form = (await createForm(t, accountId, { fields: [] })).form;
      const res = await request(url(form.id), {
        form: { constructor: 'x', toString: 'y', hasOwnProperty: 'z' },
      });
      expect(res.status).toBe(200);
      const [row] = await rows(form.id);
      expect(row.data).toEqual({
        constructor: 'x',
        toString: 'y',
        hasOwnProperty: 'z',
      });
    });

    it('refuses a constructor key on a form with fields as an unknown key', async () => {
      const res = await request(url(), {
        json: { name: 'A', email: 'a@example.com', constructor: 'x' },
      });
      expectProblem(res, 400, {
        error: 'Validation failed',
        errors: ['"constructor" is not a field of this form'],
      });
    });
  });

  describe('domain verification', () => {
    let guardedId: string;
    const VALID = { name: 'Ada', email: 'ada@example.com' };
    const submitFrom = (
      headers: Record<string, string>,
      json: unknown = VALID,
    ) => request(url(guardedId), { json, headers });

    beforeAll(async () => {
      guardedId = (await createForm(t, accountId, { domainVerification: true }))
        .form.id;
      await t.dataSource.getRepository(FormDomain).insert({
        id: ulid(),
        formId: guardedId,
        domain: 'example.com',
        token: 'test-token',
        status: 'verified',
        verifiedAt: new Date(),
        lastCheckedAt: new Date(),
        lastError: null,
        createdAt: new Date(),
      });
    });

    it('refuses an unverified site with 403 {error} and stores nothing', async () => {
      for (const headers of <Array<Record<string, string>>>[
        { origin: 'https://evil.example' },
        { referer: 'https://notexample.com/contact' },
        { origin: 'https://example.com.evil.example' },
        {},
      ]) {
        const res = await submitFrom(headers);
        expect(res.status, JSON.stringify(headers)).toBe(403);
        expect(Object.keys(res.body)).toEqual(['error']);
        expect(res.body.error).toEqual(expect.any(String));
        expectRouteHeaders(res);
      }
      expect(await countRows(guardedId)).toBe(0);
    });

    it('checks the domain before the honeypot and before validation', async () => {
      const trapped = await submitFrom(
        { origin: 'https://evil.example' },
        { ...VALID, _honeypot: 'bot' },
      );
      expect(trapped.status).toBe(403);
      const invalid = await submitFrom(
        { origin: 'https://evil.example' },
        { nonsense: 1 },
      );
      expect(invalid.status).toBe(403);
    });

    it('accepts a verified domain and its subdomains, from Origin or Referer', async () => {
      for (const headers of <Array<Record<string, string>>>[
        { origin: 'https://example.com' },
        { origin: 'https://www.example.com' },
        { referer: 'https://shop.example.com/contact?x=1' },
      ]) {
        const res = await submitFrom(headers);
        expect(res.status, JSON.stringify(headers)).toBe(200);
        expect(res.body).toEqual(RECEIVED);
      }
      expect(await countRows(guardedId)).toBe(3);
    });

    it('bypasses the check for localhost, 127.0.0.1 and 192.168.x.x', async () => {
      const before = await countRows(guardedId);
      for (const origin of [
        'http://localhost:3000',
        'http://127.0.0.1:8080',
        'http://192.168.1.20',
      ]) {
        const res = await submitFrom({ origin });
        expect(res.status, origin).toBe(200);
        expect(res.body).toEqual(RECEIVED);
      }
      expect(await countRows(guardedId)).toBe(before + 3);
    });
  });
});
