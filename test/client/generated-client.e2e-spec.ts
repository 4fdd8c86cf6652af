// A client generated from /docs-json, as an internal service would make one (openapi-typescript
// types with default options, openapi-fetch), runs the README's journey against the real app:
// create a form with the README's fields, submit to it, read the submission back. `npm run
// typecheck` generates the types from the document the app serves (scripts/openapi-types.mjs)
// and compiles this file against them, so a document that makes a documented request
// impossible to write (a field's `required` made mandatory, a path without its parameter)
// fails the type check.
import createClient from 'openapi-fetch';
import { createAccount } from '../factories/accounts.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import type { paths } from './formgate-api.js';

describe('a client generated from /docs-json (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it("runs the README's journey: a form with its two fields, a submission, the list", async () => {
    const { apiKey } = await createAccount(t);
    const api = createClient<paths>({
      baseUrl: t.url,
      headers: { 'x-api-key': apiKey },
    });

    const created = await api.POST('/api/v1/forms', {
      body: {
        name: 'Contact',
        fields: [
          { id: 'email', type: 'email', required: true },
          { id: 'message', type: 'textarea' },
        ],
      },
    });
    expect(created.response.status).toBe(201);
    const form = created.data!;
    expect(form.apiKey).toMatch(/^fgk_/);
    expect(form.fields).toEqual([
      { id: 'email', type: 'email', required: true },
      { id: 'message', type: 'textarea' },
    ]);

    const publicApi = createClient<paths>({ baseUrl: t.url });
    const submitted = await publicApi.POST('/api/submit/{formId}', {
      params: { path: { formId: form.id } },
      body: { email: 'ada@example.com', message: 'Hello' },
    });
    expect(submitted.response.status).toBe(200);
    expect(submitted.data).toEqual({
      success: true,
      message: 'Submission received',
    });

    const formApi = createClient<paths>({
      baseUrl: t.url,
      headers: { 'x-api-key': form.apiKey },
    });
    const list = await formApi.GET('/api/v1/forms/{id}/submissions', {
      params: { path: { id: form.id }, query: { limit: 10 } },
    });
    expect(list.response.status).toBe(200);
    expect(list.data!.nextCursor).toBeNull();
    expect(list.data!.data.map((s) => [s.formId, s.data])).toEqual([
      [form.id, { email: 'ada@example.com', message: 'Hello' }],
    ]);

    // A refusal arrives typed as the documented error body.
    const refused = await publicApi.POST('/api/submit/{formId}', {
      params: { path: { formId: form.id } },
      body: { message: 'no email' },
    });
    expect(refused.response.status).toBe(400);
    expect(refused.error).toEqual({
      error: 'Validation failed',
      errors: ['email is required'],
    });
  });
});
