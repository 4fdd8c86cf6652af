// /api/v1/forms: validation of form bodies, hostile ones included.
import { createAccount, type TestAccount } from '../../factories/accounts.js';
import { CONTACT_FIELDS, createForm } from '../../factories/forms.js';
import { expectProblem } from '../../support/answers.js';
import { request } from '../../support/http.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import { formsApi } from '../../support/forms-api.js';

describe('forms API: validation (e2e)', () => {
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

  const { forms, formUrl, stored, countForms, post } = formsApi(() => t);

  describe('validation', () => {
    const invalid: Array<[string, unknown, string]> = [
      ['a missing name', { fields: [] }, 'name is required'],
      [
        'an empty name',
        { name: '   ' },
        'name must be 1 to 200 characters long',
      ],
      [
        'a name over 200 characters',
        { name: 'x'.repeat(201) },
        'name must be 1 to 200 characters long',
      ],
      ['a name that is an object', { name: { a: 1 } }, 'name must be a string'],
      [
        'an unknown field type',
        { name: 'F', fields: [{ id: 'a', type: 'colour' }] },
        'fields.0.type must be one of: text, email, textarea, number, url, tel, date, select, checkbox, file',
      ],
      [
        'duplicate field ids',
        {
          name: 'F',
          fields: [
            { id: 'email', type: 'email' },
            { id: 'email', type: 'text' },
          ],
        },
        'fields must have unique ids, but "email" appears more than once',
      ],
      [
        'a field id starting with _',
        { name: 'F', fields: [{ id: '_id', type: 'text' }] },
        'fields.0.id must not start with "_": that prefix is reserved for control keys such as _honeypot',
      ],
      [
        'a field id with a space',
        { name: 'F', fields: [{ id: 'first name', type: 'text' }] },
        'fields.0.id must start with a letter or digit and contain only letters, digits, "_", "." and "-"',
      ],
      [
        'a field id over 64 characters',
        { name: 'F', fields: [{ id: 'a'.repeat(65), type: 'text' }] },
        'fields.0.id must be 1 to 64 characters long',
      ],
      [
        'a field without an id',
        { name: 'F', fields: [{ type: 'text' }] },
        'fields.0.id is required',
      ],
      [
        'an unknown property apiKeyHash',
        { name: 'F', apiKeyHash: 'a'.repeat(64) },
        'property apiKeyHash should not exist',
      ],
      [
        'an unknown property inside a field',
        { name: 'F', fields: [{ id: 'a', type: 'text', pattern: '.*' }] },
        'property fields.0.pattern should not exist',
      ],
      [
        'a select without options',
        { name: 'F', fields: [{ id: 'topic', type: 'select' }] },
        'fields.0.options is required for select fields',
      ],
      [
        'a select with empty options',
        { name: 'F', fields: [{ id: 'topic', type: 'select', options: [] }] },
        'fields.0.options must not be empty',
      ],
      [
        'options on a text field',
        { name: 'F', fields: [{ id: 'a', type: 'text', options: ['x'] }] },
        'fields.0.options is only allowed on select fields',
      ],
      [
        'options that are not strings',
        {
          name: 'F',
          fields: [{ id: 'topic', type: 'select', options: ['a', { b: 1 }] }],
        },
        'each entry of fields.0.options must be a string',
      ],
      [
        'maxLength 0',
        { name: 'F', fields: [{ id: 'a', type: 'text', maxLength: 0 }] },
        'fields.0.maxLength must be at least 1',
      ],
      [
        'maxLength over 100000',
        { name: 'F', fields: [{ id: 'a', type: 'text', maxLength: 100001 }] },
        'fields.0.maxLength must be at most 100000',
      ],
      [
        'a fractional maxLength',
        { name: 'F', fields: [{ id: 'a', type: 'text', maxLength: 2.5 }] },
        'fields.0.maxLength must be a whole number',
      ],
      [
        'a label that is an object',
        {
          name: 'F',
          fields: [{ id: 'a', type: 'text', label: { toString: 'x' } }],
        },
        'fields.0.label must be a string',
      ],
      [
        'a label over 200 characters',
        {
          name: 'F',
          fields: [{ id: 'a', type: 'text', label: 'l'.repeat(201) }],
        },
        'fields.0.label must be at most 200 characters long',
      ],
      [
        'required as a string',
        { name: 'F', fields: [{ id: 'a', type: 'text', required: 'yes' }] },
        'fields.0.required must be true or false',
      ],
      [
        'fields as an object',
        { name: 'F', fields: { a: { type: 'text' } } },
        'fields must be an array of field definitions',
      ],
      [
        'a field that is a string',
        { name: 'F', fields: ['email'] },
        'each entry of fields must be an object',
      ],
      [
        'more than 100 fields',
        {
          name: 'F',
          fields: Array.from({ length: 101 }, (_, i) => ({
            id: `f${i}`,
            type: 'text',
          })),
        },
        'fields must have at most 100 entries',
      ],
      [
        'domainVerification as a string',
        { name: 'F', domainVerification: 'yes' },
        'domainVerification must be true or false',
      ],
    ];

    it.each(invalid)(
      'refuses %s with one readable message, on POST and PUT alike',
      async (_label, body, message) => {
        const form = await createForm(t, owner.account.id);
        const before = await countForms();
        const created = await post(owner.apiKey, body);
        expectProblem(created, 400, {
          error: 'Validation failed',
          errors: [message],
        });
        expect(await countForms()).toBe(before);

        const replaced = await request(formUrl(form.form.id), {
          method: 'PUT',
          apiKey: form.apiKey,
          json: body,
        });
        expect(replaced.status).toBe(400);
        expect(replaced.body).toEqual(created.body);
        expect(await stored(form.form.id)).toMatchObject({
          name: 'Contact',
          fields: CONTACT_FIELDS,
        });
      },
    );

    it('reports each problem once when a body has several', async () => {
      const res = await post(owner.apiKey, {
        name: '',
        fields: [
          { id: '_a', type: 'text' },
          { id: 'b', type: 'bogus' },
          { id: 'c', type: 'select' },
        ],
        accountId: stranger.account.id,
      });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('Validation failed');
      expect(res.body.errors).toHaveLength(5);
      expect(res.body.errors).toEqual(
        expect.arrayContaining([
          'property accountId should not exist',
          'name must be 1 to 200 characters long',
          'fields.0.id must not start with "_": that prefix is reserved for control keys such as _honeypot',
          'fields.1.type must be one of: text, email, textarea, number, url, tel, date, select, checkbox, file',
          'fields.2.options is required for select fields',
        ]),
      );
    });

    it('refuses a body nested thousands of levels deep without overflowing', async () => {
      const deep = '{"a":'.repeat(5000) + '1' + '}'.repeat(5000);
      const before = await countForms();
      const res = await request(forms(), {
        method: 'POST',
        apiKey: owner.apiKey,
        headers: { 'content-type': 'application/json' },
        body: `{"name":"F","fields":[{"id":"a","type":"text","label":${deep}}]}`,
      });
      expectProblem(res, 400, {
        error: 'Validation failed',
        errors: ['body is nested deeper than 16 levels'],
      });
      expect(await countForms()).toBe(before);
    });

    it('answers hostile bodies with a 400, never a 500', async () => {
      const bodies: unknown[] = [
        'just a string',
        42,
        true,
        { name: 'F', fields: [null] },
        { name: 'F', fields: [[{ id: 'a', type: 'text' }]] },
        { name: 'F', fields: [{ id: 'a', type: 'text', options: null }] },
        { name: 'F', fields: [{ id: 'a', type: 'select', options: null }] },
        { name: 'F', fields: [{ id: { $ne: null }, type: 'text' }] },
        { name: 'F', fields: [{ id: 'a', type: ['text'] }] },
        { name: ['F'] },
        { name: 'F', domainVerification: null },
      ];
      const before = await countForms();
      for (const body of bodies) {
        const res = await post(owner.apiKey, body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.error).toBe('Validation failed');
        expect(res.body.errors, JSON.stringify(body)).toHaveLength(1);
      }
      const form = await createForm(t, owner.account.id);
      for (const body of ['x', 1, { fields: 'x' }, { name: null }]) {
        const res = await request(formUrl(form.form.id), {
          method: 'PATCH',
          apiKey: form.apiKey,
          json: body,
        });
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.errors).toHaveLength(1);
      }
      expect(await countForms()).toBe(before + 1);
    });

    it('refuses a JSON array as the body', async () => {
      const before = await countForms();
      for (const body of [[], [{ name: 'F' }], 'F', 42]) {
        const res = await post(owner.apiKey, body);
        expectProblem(
          res,
          400,
          {
            error: 'Validation failed',
            errors: ['body must be a JSON object'],
          },
          JSON.stringify(body),
        );
      }
      expect(await countForms()).toBe(before);
    });

    it('refuses an empty JSON body', async () => {
      const res = await request(forms(), {
        method: 'POST',
        apiKey: owner.apiKey,
        headers: { 'content-type': 'application/json' },
        body: '',
      });
      expect(res.status).toBe(400);
      expect(Object.keys(res.body)).toEqual(['error']);
    });

    it('accepts every field type with its options', async () => {
      const fields = [
        { id: 'a', type: 'text', maxLength: 1 },
        { id: 'b.c', type: 'email', label: '' },
        { id: 'D-1', type: 'textarea', maxLength: 100000 },
        { id: '9', type: 'number', required: false },
        { id: 'u', type: 'url' },
        { id: 't', type: 'tel' },
        { id: 'd', type: 'date' },
        { id: 's', type: 'select', options: ['x', 'y'] },
        { id: 'c_b', type: 'checkbox', required: true },
        { id: 'x'.repeat(64), type: 'text' },
      ];
      const res = await post(owner.apiKey, { name: 'x'.repeat(200), fields });
      expect(res.status).toBe(201);
      expect(res.body.fields).toEqual(fields);
      expect((await stored(res.body.id))!.fields).toEqual(fields);
    });
  });
});
