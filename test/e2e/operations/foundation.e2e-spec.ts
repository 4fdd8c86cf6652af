import SwaggerParser from '@apidevtools/swagger-parser';
import { createAccount } from '../../factories/accounts.js';
import { createForm } from '../../factories/forms.js';
import { expectProblem } from '../../support/answers.js';
import { request } from '../../support/http.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import { BODY_TOO_LARGE, INVALID_JSON } from '../../support/errors.js';
import { storedForm } from '../../support/stored-rows.js';

describe('foundation (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  describe('health', () => {
    it('answers liveness without touching the database', async () => {
      const res = await request(`${t.url}/health/live`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 'ok' });
    });

    it('answers readiness after pinging the database', async () => {
      const res = await request(`${t.url}/health/ready`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 'ok' });
    });
  });

  describe('error shape', () => {
    it('answers an unknown route with a JSON 404', async () => {
      const res = await request(`${t.url}/no/such/route`);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.body).toEqual({ error: 'Not found' });
    });

    it('answers malformed JSON with a 400 {error}', async () => {
      const res = await request(`${t.url}/api/v1/forms`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"name": "oops",',
      });
      expectProblem(res, 400, INVALID_JSON);
    });

    it('answers a 2 MB body with a 413 {error}', async () => {
      const res = await request(`${t.url}/api/v1/forms`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) }),
      });
      expectProblem(res, 413, BODY_TOO_LARGE);
    });

    it('answers a text/plain body with a 415 {error}', async () => {
      const res = await request(`${t.url}/api/v1/forms`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: 'name=hello',
      });
      expect(res.status).toBe(415);
      expect(Object.keys(res.body)).toEqual(['error']);
      expect(res.body.error).toMatch(/Unsupported content type/);
    });

    it('answers a malformed URL with a 400 {error}', async () => {
      const res = await request(`${t.url}/api/v1/forms/%E0%A4%A`);
      expectProblem(res, 400, 'Malformed URL');
    });

    it('answers an over-long path segment with a 414 {error}', async () => {
      const res = await request(`${t.url}/api/v1/forms/${'a'.repeat(300)}`);
      expectProblem(res, 414, 'A segment of the URL path is too long');
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
    });

    it('keeps the submit route CORS-open on errors raised before routing', async () => {
      const res = await request(`${t.url}/api/submit/${'a'.repeat(300)}`, {
        json: {},
      });
      expectProblem(res, 414, 'A segment of the URL path is too long');
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
    });

    it('answers a URL beyond the header limit with a 431 {error}', async () => {
      const res = await request(`${t.url}/${'x'.repeat(20_000)}`);
      expectProblem(res, 431, 'Request headers (or the URL) are too large');
    });

    it('refuses __proto__ keys in JSON with a 400 and no pollution', async () => {
      const res = await request(`${t.url}/api/v1/forms`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"__proto__": {"polluted": true}}',
      });
      expect(res.status).toBe(400);
      // Fastify's JSON parser refuses prototype keys without saying why.
      expect(res.body).toEqual(INVALID_JSON);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });
  });

  describe('persistence', () => {
    it('stores accounts and forms through the migrated schema', async () => {
      const { account } = await createAccount(t);
      const { form } = await createForm(t, account.id);
      const row = await storedForm(t, form.id);
      expect(row?.id).toBe(form.id);
      expect(row?.name).toBe('Contact');
      expect(form.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    });

    it('keeps millisecond UTC timestamps', async () => {
      const { account } = await createAccount(t);
      const { form } = await createForm(t, account.id);
      const reread = await t.dataSource
        .getRepository('Form')
        .findOneByOrFail({ id: form.id });
      expect((reread.createdAt as Date).toISOString()).toBe(
        form.createdAt.toISOString(),
      );
    });
  });

  describe('OpenAPI', () => {
    it('serves Swagger UI whose assets load', async () => {
      const page = await request(`${t.url}/docs`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(page.text).toContain('swagger-ui-bundle.js');
      const bundle = await request(`${t.url}/docs/swagger-ui-bundle.js`);
      expect(bundle.status).toBe(200);
      expect(bundle.headers.get('content-type')).toMatch(/javascript/);
      const css = await request(`${t.url}/docs/swagger-ui.css`);
      expect(css.status).toBe(200);
      expect(css.headers.get('content-type')).toMatch(/^text\/css/);
    });

    it('serves a valid OpenAPI 3 document with both API key schemes', async () => {
      const res = await request(`${t.url}/docs-json`);
      expect(res.status).toBe(200);
      const document = res.body;
      expect(document.openapi).toMatch(/^3\./);
      expect(document.info.title).toBe('Formgate API');
      expect(document.info.version).toMatch(/^\d+\.\d+\.\d+$/);
      expect(document.components.securitySchemes).toMatchObject({
        apiKeyHeader: { type: 'apiKey', in: 'header', name: 'x-api-key' },
        apiKeyQuery: { type: 'apiKey', in: 'query', name: 'apiKey' },
      });
      await expect(
        SwaggerParser.validate(structuredClone(document)),
      ).resolves.toBeTruthy();
    });
  });

  it('sends no CORS headers outside the submit route', async () => {
    const res = await request(`${t.url}/health/live`, {
      headers: { origin: 'https://evil.example' },
    });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    const docs = await request(`${t.url}/docs-json`, {
      headers: { origin: 'https://evil.example' },
    });
    expect(docs.headers.get('access-control-allow-origin')).toBeNull();
  });
});
