// DELETE /api/v1/forms/:id, key regeneration, keys never shown again, and the OpenAPI
// description of the forms routes.
import SwaggerParser from '@apidevtools/swagger-parser';
import { FormsService } from '../../../src/forms/forms.service.js';
import { createAccount, type TestAccount } from '../../factories/accounts.js';
import { CONTACT_FIELDS, createForm } from '../../factories/forms.js';
import { request } from '../../support/http.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import { FORM_NOT_FOUND, INVALID_API_KEY } from '../../support/errors.js';
import { createDomain } from '../../factories/domains.js';
import { insertSubmissions } from '../../factories/submissions.js';
import { FORM_KEYS, formsApi, sha256 } from '../../support/forms-api.js';
import { countRows } from '../../support/stored-rows.js';

describe('forms API: deletion, keys and OpenAPI (e2e)', () => {
  let t: TestApp;
  let owner: TestAccount;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await createAccount(t);
  });
  afterAll(async () => {
    await t.close();
  });

  const { forms, formUrl, stored, post } = formsApi(() => t);

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
      expect(after.status).toBe(403);
      expect(after.body).toEqual(INVALID_API_KEY);
      const again = await request(formUrl(form.form.id), {
        method: 'DELETE',
        apiKey: owner.apiKey,
      });
      expect(again.status).toBe(404);
      expect(again.body).toEqual(FORM_NOT_FOUND);
    });
  });

  describe('POST /api/v1/forms/:id/api-key', () => {
    it('issues a new key and the old one is refused at once', async () => {
      const form = await createForm(t, owner.account.id);
      const res = await request(`${formUrl(form.form.id)}/api-key`, {
        method: 'POST',
        apiKey: form.apiKey,
      });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['apiKey']);
      const { apiKey } = res.body;
      expect(apiKey).toMatch(/^fgk_[A-Za-z0-9_-]{43}$/);
      expect(apiKey).not.toBe(form.apiKey);

      const old = await request(formUrl(form.form.id), { apiKey: form.apiKey });
      expect(old.status).toBe(403);
      expect(old.body).toEqual(INVALID_API_KEY);

      const fresh = await request(formUrl(form.form.id), { apiKey });
      expect(fresh.status).toBe(200);
      expect(fresh.body.apiKeyPrefix).toBe(apiKey.slice(0, 12));

      const row = await stored(form.form.id);
      expect(row).toMatchObject({
        apiKeyHash: sha256(apiKey),
        apiKeyPrefix: apiKey.slice(0, 12),
        name: 'Contact',
        fields: CONTACT_FIELDS,
      });
      expect(
        await t.app
          .get(FormsService)
          .revealApiKey(owner.account.id, form.form.id),
      ).toBe(apiKey);
    });

    it('works with the account key too', async () => {
      const form = await createForm(t, owner.account.id);
      const res = await request(`${formUrl(form.form.id)}/api-key`, {
        method: 'POST',
        apiKey: owner.apiKey,
      });
      expect(res.status).toBe(200);
      expect((await request(forms(), { apiKey: form.apiKey })).status).toBe(
        403,
      );
      expect((await request(forms(), { apiKey: res.body.apiKey })).status).toBe(
        200,
      );
    });

    it('answers 404 for an unknown form', async () => {
      const res = await request(`${formUrl('no-such-form')}/api-key`, {
        method: 'POST',
        apiKey: owner.apiKey,
      });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(FORM_NOT_FOUND);
    });
  });

  it('never shows a full key outside creation and regeneration', async () => {
    const created = await post(owner.apiKey, { name: 'Secretive' });
    const key = created.body.apiKey as string;
    const url = formUrl(created.body.id);
    const responses = [
      await request(forms(), { apiKey: key }),
      await request(forms(), { apiKey: owner.apiKey }),
      await request(url, { apiKey: key }),
      await request(url, { method: 'PUT', apiKey: key, json: { name: 'S' } }),
      await request(url, { method: 'PATCH', apiKey: key, json: { name: 'S' } }),
      await request(url, {
        method: 'PATCH',
        apiKey: key,
        json: { apiKey: key },
      }),
      await request(`${forms()}/elsewhere`, { apiKey: key }),
    ];
    for (const res of responses) {
      expect(res.status).toBeLessThan(500);
      expect(res.text).not.toContain(key.slice(4));
      expect(res.text).not.toContain(owner.apiKey.slice(4));
      expect(res.text).not.toContain(sha256(key));
      expect(res.text).not.toMatch(/apiKeyHash|apiKeyEncrypted|accountId/);
    }
  });

  describe('OpenAPI', () => {
    it('documents every forms route with its schemas, security and error responses', async () => {
      const res = await request(`${t.url}/docs-json`);
      expect(res.status).toBe(200);
      const doc = res.body;
      const routes: Array<[string, string, string[]]> = [
        ['/api/v1/forms', 'get', ['200', '401', '403', '503']],
        [
          '/api/v1/forms',
          'post',
          ['201', '400', '401', '403', '409', '413', '415', '422', '503'],
        ],
        ['/api/v1/forms/{id}', 'get', ['200', '401', '403', '404', '503']],
        [
          '/api/v1/forms/{id}',
          'put',
          ['200', '400', '401', '403', '404', '413', '415', '503'],
        ],
        [
          '/api/v1/forms/{id}',
          'patch',
          ['200', '400', '401', '403', '404', '413', '415', '503'],
        ],
        ['/api/v1/forms/{id}', 'delete', ['204', '401', '403', '404', '503']],
        [
          '/api/v1/forms/{id}/api-key',
          'post',
          [
            '200',
            '400',
            '401',
            '403',
            '404',
            '409',
            '413',
            '415',
            '422',
            '503',
          ],
        ],
      ];
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
