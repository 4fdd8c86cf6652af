// A client generated from /docs-json, as an internal service would make one (openapi-typescript
// types with default options, openapi-fetch), runs the README's journey against the real app:
// create a form with the README's fields, submit to it, read the submission back. `npm run
// typecheck` generates the types from the document the app serves (scripts/openapi-types.mjs)
// and compiles this file against them, so a document that makes a documented request
// impossible to write (a field's `required` made mandatory, a path without its parameter)
// fails the type check.
import createClient from 'openapi-fetch';
import { DownloadLinks } from '../../src/files/downloads/download-links.js';
import { createAccount } from '../factories/accounts.js';
import { storeFile } from '../factories/files.js';
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
  it('calls each route added since: account keys, /f, the ALTCHA challenge, files, signed links, erasure', async () => {
    const { account, apiKey } = await createAccount(t);
    const api = createClient<paths>({
      baseUrl: t.url,
      headers: { 'x-api-key': apiKey },
    });
    const publicApi = createClient<paths>({ baseUrl: t.url });

    // Account keys: create one (its optional properties left out), see it listed, revoke it.
    const key = await api.POST('/api/v1/account/keys', {
      body: { name: 'Reporting' },
    });
    expect(key.response.status).toBe(201);
    expect(key.data!.apiKey).toMatch(/^fga_/);
    expect(key.data!.readOnly).toBe(false);
    const keys = await api.GET('/api/v1/account/keys');
    expect(keys.response.status).toBe(200);
    expect(keys.data!.data.map((k) => k.name)).toContain('Reporting');
    const revoked = await api.DELETE('/api/v1/account/keys/{keyId}', {
      params: { path: { keyId: key.data!.id } },
    });
    expect(revoked.response.status).toBe(204);

    // A fresh form has no CAPTCHA and no previous key: answered as null, and typed so that
    // null compiles (a document declaring them as bare objects fails the type check here).
    const created = await api.POST('/api/v1/forms', {
      body: {
        name: 'Jobs',
        fields: [
          { id: 'email', type: 'email', required: true },
          { id: 'cv', type: 'file', accept: ['.txt'] },
        ],
      },
    });
    expect(created.response.status).toBe(201);
    const form = created.data!;
    const none: {
      captcha: typeof form.captcha;
      key: typeof form.previousApiKey;
    } = { captcha: null, key: null };
    expect(form.captcha).toBe(none.captcha);
    expect(form.previousApiKey).toBe(none.key);

    // The Formspree-compatible route.
    const posted = await publicApi.POST('/f/{formId}', {
      params: { path: { formId: form.id } },
      body: { email: 'ada@example.com' },
    });
    expect(posted.response.status).toBe(200);
    expect(posted.data).toEqual({
      ok: true,
      next: `${t.config.publicUrl}/f/${form.id}/thanks`,
    });

    // The ALTCHA challenge of a form that uses ALTCHA.
    const guarded = await api.POST('/api/v1/forms', {
      body: { name: 'Guarded', captcha: { provider: 'altcha' } },
    });
    expect(guarded.response.status).toBe(201);
    const challenge = await publicApi.GET('/api/submit/{formId}/challenge', {
      params: { path: { formId: guarded.data!.id } },
    });
    expect(challenge.response.status).toBe(200);
    expect(challenge.data!.parameters.algorithm).toBeTypeOf('string');
    expect(challenge.data!.signature).toBeTypeOf('string');

    // A file of the submission: by key, and through a signed link.
    const list = await api.GET('/api/v1/forms/{id}/submissions', {
      params: { path: { id: form.id } },
    });
    const submissionId = list.data!.data[0].id;
    const file = await storeFile(t, {
      formId: form.id,
      submissionId,
      accountId: account.id,
      fieldId: 'cv',
      name: 'cv.txt',
      bytes: Buffer.from('Ada Lovelace\n'),
    });
    const download = await api.GET(
      '/api/v1/forms/{id}/submissions/{submissionId}/files/{fileId}',
      {
        params: { path: { id: form.id, submissionId, fileId: file.id } },
        parseAs: 'text',
      },
    );
    expect(download.response.status).toBe(200);
    expect(download.data).toBe('Ada Lovelace\n');
    const token = t.app.get(DownloadLinks).token(file.id);
    const linked = await publicApi.GET('/files/{token}', {
      params: { path: { token } },
      parseAs: 'text',
    });
    expect(linked.response.status).toBe(200);
    expect(linked.data).toBe('Ada Lovelace\n');

    // Erasure: export the person's submissions, count them, erase them.
    const exported = await api.GET('/api/v1/erasure/export', {
      params: { query: { email: 'ada@example.com' } },
      parseAs: 'text',
    });
    expect(exported.response.status).toBe(200);
    expect(exported.data!.trim().split('\n')).toHaveLength(1);
    const counted = await api.POST('/api/v1/erasure', {
      body: { email: 'ada@example.com', dryRun: true },
    });
    expect(counted.response.status).toBe(200);
    expect(counted.data).toEqual({ deleted: 1, forms: 1 });
    const erased = await api.POST('/api/v1/erasure', {
      body: { email: 'ada@example.com' },
    });
    expect(erased.data).toEqual({ deleted: 1, forms: 1 });
    const after = await api.GET('/api/v1/forms/{id}/submissions', {
      params: { path: { id: form.id } },
    });
    expect(after.data!.data).toEqual([]);
  });
});
