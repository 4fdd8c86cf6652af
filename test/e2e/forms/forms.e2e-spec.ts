// /api/v1/forms: creating, listing, reading and deleting forms, the least privilege of form
// keys, and the OpenAPI description of the forms routes. Updates (forms-update), validation
// (forms-validation), keys and their rotation (forms-keys), caps (forms-limits) and
// retention (forms-retention) have specs of their own.
import SwaggerParser from '@apidevtools/swagger-parser';
import { FORM_KEY_CREATED_WARNING } from '../../../src/forms/answers/form-created.js';
import { SecretBoxService } from '../../../src/auth/secret-box.service.js';
import { FormsService } from '../../../src/forms/forms.service.js';
import { createAccount, type TestAccount } from '../../factories/accounts.js';
import { createDomain } from '../../factories/domains.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import { insertSubmissions } from '../../factories/submissions.js';
import { expectProblem } from '../../support/answers.js';
import { request } from '../../support/http.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import { FORM_NOT_FOUND, INVALID_API_KEY } from '../../support/errors.js';
import {
  expectFormAnswer,
  FORM_KEYS,
  formAnswer,
  formsApi,
  ISO_MS,
  NO_VERIFIED_DOMAIN,
  sha256,
} from '../../support/forms-api.js';
import { countRows } from '../../support/stored-rows.js';

describe('forms API (e2e)', () => {
  let t: TestApp;
  let owner: TestAccount;
  let stranger: TestAccount;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await createAccount(t);
    stranger = await createAccount(t);
  });
  afterAll(async () => {
    await t.close();
  });

  const { forms, formUrl, stored, post } = formsApi(() => t);

  describe('POST /api/v1/forms', () => {
    it('creates a form in the account of an account key and returns its new key once', async () => {
      const fields = [
        { id: 'name', type: 'text', label: 'Name', required: true },
        { id: 'email', type: 'email', required: true, maxLength: 320 },
        { id: 'topic', type: 'select', options: ['sales', 'support'] },
        { id: 'agree', type: 'checkbox' },
      ];
      const res = await post(owner.apiKey, {
        name: '  Contact us  ',
        fields,
        domainVerification: true,
      });
      expect(res.status).toBe(201);
      expect(Object.keys(res.body).sort()).toEqual(
        [...FORM_KEYS, 'apiKey', 'warning'].sort(),
      );
      const { id, apiKey, createdAt } = res.body;
      expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(apiKey).toMatch(/^fgk_[A-Za-z0-9_-]{43}$/);
      expect(createdAt).toMatch(ISO_MS);
      expect(res.body).toEqual(
        formAnswer({
          id,
          name: 'Contact us',
          fields,
          domainVerification: true,
          apiKeyPrefix: apiKey.slice(0, 12),
          createdAt,
          updatedAt: createdAt,
          apiKey,
          warning: NO_VERIFIED_DOMAIN,
        }),
      );

      const row = await stored(id);
      expect(row).toMatchObject({
        accountId: owner.account.id,
        name: 'Contact us',
        fields,
        domainVerification: true,
        apiKeyHash: sha256(apiKey),
        apiKeyPrefix: apiKey.slice(0, 12),
      });
      // Only an encrypted copy of the key is stored, and it opens to the key.
      expect(row!.apiKeyEncrypted).not.toContain(apiKey.slice(4));
      expect(t.app.get(SecretBoxService).decrypt(row!.apiKeyEncrypted)).toBe(
        apiKey,
      );
      expect(
        await t.app.get(FormsService).revealApiKey(owner.account.id, id),
      ).toBe(apiKey);

      // The new key works at once, for the new form.
      const read = await request(formUrl(id), { apiKey });
      expect(read.status).toBe(200);
      expect(read.body).toEqual({
        ...res.body,
        apiKey: undefined,
        // Reading it used the key.
        apiKeyLastUsedAt: expect.stringMatching(ISO_MS),
      });
    });

    it('defaults fields to none and domain verification to off', async () => {
      const res = await post(owner.apiKey, { name: 'Bare' });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        name: 'Bare',
        fields: [],
        domainVerification: false,
      });
      expect(await stored(res.body.id)).toMatchObject({
        fields: [],
        domainVerification: false,
      });
    });

    it('lets a form key create a sibling form in its account, with its own key', async () => {
      const parent = await createForm(t, owner.account.id);
      const res = await post(parent.apiKey, { name: 'Sibling' });
      expect(res.status).toBe(201);
      expect(res.body.apiKey).toMatch(/^fgk_/);
      expect(res.body.apiKey).not.toBe(parent.apiKey);
      // The answer warns that the key which created the form cannot reach it.
      expect(res.body.warning).toBe(FORM_KEY_CREATED_WARNING);
      expect(await stored(res.body.id)).toMatchObject({
        accountId: owner.account.id,
        name: 'Sibling',
      });
      // Each key keeps reaching only its own form.
      const own = await request(formUrl(res.body.id), {
        apiKey: res.body.apiKey,
      });
      expect(own.status).toBe(200);
      const other = await request(formUrl(res.body.id), {
        apiKey: parent.apiKey,
      });
      expectProblem(other, 404, FORM_NOT_FOUND);
    });

    it('warns only when a form key creates the form, not an account key', async () => {
      const res = await post(owner.apiKey, { name: 'By the account key' });
      expect(res.status).toBe(201);
      expect(res.body).not.toHaveProperty('warning');
    });

    it('gives every form a distinct random identifier', async () => {
      const ids = new Set<string>();
      for (let i = 0; i < 5; i++) {
        const res = await post(owner.apiKey, { name: `Form ${i}` });
        ids.add(res.body.id);
      }
      expect(ids.size).toBe(5);
    });
  });

  describe('GET /api/v1/forms', () => {
    it('lists every form of the account for an account key, and none of another account', async () => {
      const account = await createAccount(t);
      const a = await createForm(t, account.account.id, { name: 'A' });
      const b = await createForm(t, account.account.id, { name: 'B' });
      await createForm(t, stranger.account.id, { name: 'Not yours' });
      const res = await request(forms(), { apiKey: account.apiKey });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['data']);
      const service = t.app.get(FormsService);
      expect(
        [...res.body.data].sort((x: { name: string }, y: { name: string }) =>
          x.name.localeCompare(y.name),
        ),
      ).toEqual([service.toResponse(a.form), service.toResponse(b.form)]);
      for (const form of res.body.data) {
        expect(Object.keys(form).sort()).toEqual([...FORM_KEYS].sort());
      }
    });

    it('lists just its own form for a form key', async () => {
      const mine = await createForm(t, owner.account.id, { name: 'Mine' });
      await createForm(t, owner.account.id, { name: 'Sibling' });
      const res = await request(forms(), { apiKey: mine.apiKey });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['data']);
      expect(res.body.data).toHaveLength(1);
      expectFormAnswer(res.body.data[0], mine, {
        name: 'Mine',
        // The key was just used to ask.
        apiKeyLastUsedAt: expect.stringMatching(ISO_MS),
      });
    });

    it('answers an empty list for an account without forms', async () => {
      const empty = await createAccount(t);
      const res = await request(forms(), { apiKey: empty.apiKey });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ data: [] });
    });
  });

  describe('GET /api/v1/forms/:id', () => {
    it('reads a form with its form key and with the account key', async () => {
      const form = await createForm(t, owner.account.id);
      for (const apiKey of [form.apiKey, owner.apiKey]) {
        const res = await request(formUrl(form.form.id), { apiKey });
        expect(res.status).toBe(200);
        expectFormAnswer(res.body, form, {
          // The form key was used for the first read; the account key's read shows that.
          apiKeyLastUsedAt: expect.stringMatching(ISO_MS),
        });
      }
    });

    it('answers 404 for an unknown id and for odd ids', async () => {
      for (const id of ['no-such-form', 'x'.repeat(150), "' OR 1=1 --", '%']) {
        const res = await request(formUrl(id), { apiKey: owner.apiKey });
        expectProblem(res, 404, FORM_NOT_FOUND, id);
      }
    });

    it("answers 404 for another account's form, as if it did not exist", async () => {
      const theirs = await createForm(t, stranger.account.id);
      const res = await request(formUrl(theirs.form.id), {
        apiKey: owner.apiKey,
      });
      expectProblem(res, 404, FORM_NOT_FOUND);
    });
  });

  describe('DELETE /api/v1/forms/:id', () => {
    it('deletes the form with its submissions and domains, and its key stops working', async () => {
      const form = await createForm(t, owner.account.id);
      const keep = await createForm(t, owner.account.id);
      const when = new Date('2025-01-02T03:04:05.678Z');
      for (const target of [form, keep]) {
        await insertSubmissions(t, target.form.id, [
          { createdAt: when, data: { a: 'b' } },
        ]);
        await createDomain(t, target.form.id, { createdAt: when });
      }

      const res = await request(formUrl(form.form.id), {
        method: 'DELETE',
        apiKey: form.apiKey,
      });
      expect(res.status).toBe(204);
      expect(res.text).toBe('');

      expect(await stored(form.form.id)).toBeUndefined();
      const count = (table: 'submission' | 'form_domain', formId: string) =>
        countRows(t, table, { column: 'formId', value: formId });
      expect(await count('submission', form.form.id)).toBe(0);
      expect(await count('form_domain', form.form.id)).toBe(0);
      expect(await count('submission', keep.form.id)).toBe(1);
      expect(await count('form_domain', keep.form.id)).toBe(1);

      const after = await request(forms(), { apiKey: form.apiKey });
      expectProblem(after, 403, INVALID_API_KEY);
      const again = await request(formUrl(form.form.id), {
        method: 'DELETE',
        apiKey: owner.apiKey,
      });
      expectProblem(again, 404, FORM_NOT_FOUND);
    });
  });

  describe('least privilege of form keys', () => {
    let mine: TestForm;
    let sibling: TestForm;

    beforeEach(async () => {
      mine = await createForm(t, owner.account.id, { name: 'Mine' });
      sibling = await createForm(t, owner.account.id, { name: 'Sibling' });
    });

    it('cannot read, change, regenerate or delete a sibling form (404)', async () => {
      const attempts: Array<[string, string, unknown]> = [
        ['GET', formUrl(sibling.form.id), undefined],
        ['PUT', formUrl(sibling.form.id), { name: 'Hijacked' }],
        ['PATCH', formUrl(sibling.form.id), { name: 'Hijacked' }],
        ['DELETE', formUrl(sibling.form.id), undefined],
        ['POST', `${formUrl(sibling.form.id)}/api-key`, undefined],
      ];
      for (const [method, url, json] of attempts) {
        const res = await request(url, { method, json, apiKey: mine.apiKey });
        expectProblem(res, 404, FORM_NOT_FOUND, `${method} ${url}`);
      }
      const row = await stored(sibling.form.id);
      expect(row).toMatchObject({
        name: 'Sibling',
        apiKeyHash: sha256(sibling.apiKey),
      });
      expect((await request(forms(), { apiKey: sibling.apiKey })).status).toBe(
        200,
      );
    });

    it('while the account key can do all of it', async () => {
      const url = formUrl(sibling.form.id);
      const read = await request(url, { apiKey: owner.apiKey });
      expect(read.status).toBe(200);
      const put = await request(url, {
        method: 'PUT',
        apiKey: owner.apiKey,
        json: { name: 'Renamed' },
      });
      expect(put.status).toBe(200);
      const patch = await request(url, {
        method: 'PATCH',
        apiKey: owner.apiKey,
        json: { domainVerification: true },
      });
      expect(patch.status).toBe(200);
      const key = await request(`${url}/api-key`, {
        method: 'POST',
        apiKey: owner.apiKey,
      });
      expect(key.status).toBe(200);
      const del = await request(url, {
        method: 'DELETE',
        apiKey: owner.apiKey,
      });
      expect(del.status).toBe(204);
      expect(await stored(sibling.form.id)).toBeUndefined();
    });

    it("cannot reach another account's form either, with either kind of key", async () => {
      const theirs = await createForm(t, stranger.account.id);
      for (const apiKey of [mine.apiKey, owner.apiKey]) {
        const del = await request(formUrl(theirs.form.id), {
          method: 'DELETE',
          apiKey,
        });
        expectProblem(del, 404, FORM_NOT_FOUND);
        const patch = await request(formUrl(theirs.form.id), {
          method: 'PATCH',
          apiKey,
          json: { name: 'Hijacked' },
        });
        expect(patch.status).toBe(404);
      }
      expect(await stored(theirs.form.id)).toMatchObject({ name: 'Contact' });
    });
  });

  describe('OpenAPI', () => {
    it('documents every forms route with its schemas, security and error responses', async () => {
      const res = await request(`${t.url}/docs-json`);
      expect(res.status).toBe(200);
      const doc = res.body;
      // Each route with the statuses it documents, in order.
      const routes: Array<[string, string, string[]]> = (
        [
          ['/api/v1/forms', 'get', '200 401 403 503'],
          ['/api/v1/forms', 'post', '201 400 401 403 409 413 415 422 503'],
          ['/api/v1/forms/{id}', 'get', '200 401 403 404 503'],
          ['/api/v1/forms/{id}', 'put', '200 400 401 403 404 413 415 503'],
          ['/api/v1/forms/{id}', 'patch', '200 400 401 403 404 413 415 503'],
          ['/api/v1/forms/{id}', 'delete', '204 401 403 404 503'],
          [
            '/api/v1/forms/{id}/api-key',
            'post',
            '200 400 401 403 404 409 413 415 422 503',
          ],
        ] as const
      ).map(([path, method, statuses]) => [path, method, statuses.split(' ')]);
      for (const [path, method, statuses] of routes) {
        const operation = doc.paths[path]?.[method];
        expect(operation, `${method} ${path}`).toBeDefined();
        expect(Object.keys(operation.responses).sort()).toEqual(statuses);
        expect(operation.security).toEqual([
          { apiKeyHeader: [] },
          { apiKeyQuery: [] },
        ]);
        for (const status of statuses.filter((s) => s >= '400')) {
          expect(
            operation.responses[status].content['application/json'].schema,
          ).toBeDefined();
        }
      }
      const schemas = doc.components.schemas;
      expect(
        doc.paths['/api/v1/forms'].post.requestBody.content['application/json']
          .schema,
      ).toEqual({ $ref: '#/components/schemas/CreateFormDto' });
      const rotation = doc.paths['/api/v1/forms/{id}/api-key'].post;
      expect(rotation.requestBody.required).toBe(false);
      expect(rotation.requestBody.content['application/json'].schema).toEqual({
        $ref: '#/components/schemas/RegenerateKeyDto',
      });
      expect(schemas.RegenerateKeyDto.properties.graceSeconds).toMatchObject({
        type: 'number',
        minimum: 0,
        maximum: 604800,
        default: 0,
      });
      expect(schemas.CreateFormDto.required).toEqual(['name']);
      expect(Object.keys(schemas.CreateFormDto.properties).sort()).toEqual([
        'autoresponse',
        'captcha',
        'domainVerification',
        'fields',
        'name',
        'notifyEmails',
        'redirectUrl',
        'retentionDays',
        'spamFilter',
        'successMessage',
      ]);
      expect(schemas.CreateFormDto.properties.retentionDays).toMatchObject({
        type: 'integer',
        nullable: true,
        minimum: 1,
        maximum: 3650,
      });
      expect(schemas.FieldDefinitionDto.required).toEqual(['id', 'type']);
      expect(schemas.FieldDefinitionDto.properties.type.enum).toEqual([
        'text',
        'email',
        'textarea',
        'number',
        'url',
        'tel',
        'date',
        'select',
        'checkbox',
        'file',
      ]);
      expect(Object.keys(schemas.FieldDefinitionDto.properties)).toEqual(
        expect.arrayContaining(['maxSize', 'accept', 'maxFiles']),
      );
      expect(schemas.PatchFormDto.required ?? []).toEqual([]);
      expect(Object.keys(schemas.FormResponseDto.properties).sort()).toEqual(
        [...FORM_KEYS, 'warning', 'apiKeyExpiresAt'].sort(),
      );
      expect(schemas.FormResponseDto.required ?? []).not.toContain('warning');
      // Shown only for a key that expires (made by an expiring key).
      expect(schemas.FormResponseDto.required ?? []).not.toContain(
        'apiKeyExpiresAt',
      );
      expect(schemas.CreatedFormResponseDto.properties.apiKey).toBeDefined();
      expect(schemas.FormResponseDto.properties.name.example).toBe('Contact');
      // Validated on its own: other features' routes are not this suite's business.
      const formsPaths = Object.fromEntries(
        Object.entries(doc.paths).filter(
          ([path]) =>
            path.startsWith('/api/v1/forms') &&
            !/submissions|domains|webhooks|deliveries|chat-channels/.test(path),
        ),
      );
      expect(Object.keys(formsPaths).sort()).toEqual([
        '/api/v1/forms',
        '/api/v1/forms/{id}',
        '/api/v1/forms/{id}/api-key',
      ]);
      const schemasUsed: Record<string, unknown> = {};
      const collect = (node: unknown): void => {
        if (Array.isArray(node)) return node.forEach(collect);
        if (node === null || typeof node !== 'object') return;
        const ref = (node as { $ref?: unknown }).$ref;
        if (typeof ref === 'string') {
          const name = ref.replace('#/components/schemas/', '');
          if (name in schemasUsed) return;
          schemasUsed[name] = schemas[name];
          collect(schemas[name]);
        }
        Object.values(node).forEach(collect);
      };
      collect(formsPaths);
      await expect(
        SwaggerParser.validate(
          structuredClone({
            ...doc,
            paths: formsPaths,
            components: { ...doc.components, schemas: schemasUsed },
          }),
        ),
      ).resolves.toBeTruthy();
    });
  });
});
