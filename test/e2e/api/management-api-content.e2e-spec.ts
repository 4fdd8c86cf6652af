// The management API reads JSON only, as its OpenAPI document says: a form-encoded,
// multipart or text body is refused with 415 before anything is read or changed, and an
// oversized JSON body with 413 — both with the one error shape, both declared in /docs-json.
import { Form } from '../../../src/forms/form.entity.js';
import { UNSUPPORTED_MANAGEMENT_TYPE_MESSAGE } from '../../../src/common/openapi/openapi-document.js';
import { createAccount, type TestAccount } from '../../factories/accounts.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import { request } from '../../support/http.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

interface Operation {
  requestBody?: { content: Record<string, unknown> };
  responses: Record<string, { content?: Record<string, unknown> }>;
}

describe('management API content types (e2e)', () => {
  let t: TestApp;
  let owner: TestAccount;
  let form: TestForm;

  beforeAll(async () => {
    t = await createTestApp({ env: { SUBMIT_BODY_LIMIT: '2048' } });
    owner = await createAccount(t);
    form = await createForm(t, owner.account.id);
  });
  afterAll(async () => {
    await t?.close();
  });

  const storedName = async () =>
    (
      await t.dataSource
        .getRepository(Form)
        .findOneByOrFail({ id: form.form.id })
    ).name;

  it('refuses a form-encoded body with 415 and changes nothing', async () => {
    const res = await request(`${t.url}/api/v1/forms/${form.form.id}`, {
      method: 'PATCH',
      apiKey: form.apiKey,
      form: { name: 'Renamed' },
    });
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ error: UNSUPPORTED_MANAGEMENT_TYPE_MESSAGE });
    expect(await storedName()).toBe('Contact');
    const created = await request(`${t.url}/api/v1/forms`, {
      apiKey: owner.apiKey,
      form: { name: 'Another' },
    });
    expect(created.status).toBe(415);
    expect(
      await t.dataSource
        .getRepository(Form)
        .countBy({ accountId: owner.account.id }),
    ).toBe(1);
  });

  it('refuses multipart and text bodies with 415 too, and takes the same body as JSON', async () => {
    for (const contentType of [
      'multipart/form-data; boundary=x',
      'text/plain',
      'application/xml',
    ]) {
      const res = await request(`${t.url}/api/v1/forms/${form.form.id}`, {
        method: 'PATCH',
        apiKey: form.apiKey,
        headers: { 'content-type': contentType },
        body: 'name=Renamed',
      });
      expect(res.status, contentType).toBe(415);
      expect(Object.keys(res.body as object)).toEqual(['error']);
    }
    const json = await request(`${t.url}/api/v1/forms/${form.form.id}`, {
      method: 'PATCH',
      apiKey: form.apiKey,
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ name: 'Renamed' }),
    });
    expect(json.status).toBe(200);
    expect(await storedName()).toBe('Renamed');
  });

  it('refuses a body over the limit with 413', async () => {
    const res = await request(`${t.url}/api/v1/forms/${form.form.id}`, {
      method: 'PATCH',
      apiKey: form.apiKey,
      json: { name: 'x'.repeat(4096) },
    });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: 'Request body is too large' });
  });

  it('declares JSON as the only body of every route, with its 400, 413 and 415', async () => {
    const document = (
      await request<{ paths: Record<string, Record<string, Operation>> }>(
        `${t.url}/docs-json`,
      )
    ).body;
    const bodyRoutes = Object.entries(document.paths)
      .filter(([path]) => path.startsWith('/api/v1/'))
      .flatMap(([path, item]) =>
        Object.entries(item)
          .filter(([, op]) => op.requestBody)
          .map(([method, op]) => [`${method} ${path}`, op] as const),
      );
    expect(bodyRoutes.length).toBeGreaterThanOrEqual(6);
    for (const [route, op] of bodyRoutes) {
      expect(Object.keys(op.requestBody!.content), route).toEqual([
        'application/json',
      ]);
      for (const status of ['400', '413', '415']) {
        expect(
          Object.keys(op.responses[status]?.content ?? {}),
          `${route} ${status}`,
        ).toEqual(['application/json']);
      }
    }
  });
});
