// /api/v1/forms: CRUD round trips, key regeneration, least privilege of form keys,
// validation of hostile bodies, and the OpenAPI description of it all.
import SwaggerParser from '@apidevtools/swagger-parser';
import { createHash } from 'node:crypto';
import { SecretBox } from '../src/auth/secret-box.js';
import { FormsService } from '../src/forms/forms.service.js';
import { createAccount, type TestAccount } from './factories/accounts.js';
import {
  CONTACT_FIELDS,
  createForm,
  type TestForm,
} from './factories/forms.js';
import { request, type HttpResponse } from './support/http.js';
import { createTestApp, type TestApp } from './support/test-app.js';

const FORM_NOT_FOUND = { error: 'Form not found' };
const FORM_KEYS = [
  'id',
  'name',
  'fields',
  'domainVerification',
  'notifyEmails',
  'notifyEmailStatus',
  'apiKeyPrefix',
  'createdAt',
  'updatedAt',
];
const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const NO_VERIFIED_DOMAIN =
  'Domain verification is on but no domain is verified yet: only development hosts (localhost, 127.0.0.1, 192.168.x.x) can submit.';

interface StoredForm {
  id: string;
  accountId: string;
  name: string;
  fields: unknown;
  domainVerification: boolean;
  apiKeyHash: string;
  apiKeyEncrypted: string;
  apiKeyPrefix: string;
  createdAt: string;
  updatedAt: string;
}

const sha256 = (value: string) =>
  createHash('sha256').update(value).digest('hex');

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

  const forms = () => `${t.url}/api/v1/forms`;
  const formUrl = (id: string) => `${forms()}/${encodeURIComponent(id)}`;

  /** The row as the database holds it, normalised across SQLite and MariaDB. */
  async function stored(id: string): Promise<StoredForm | undefined> {
    const [row] = await t.dataSource.query('SELECT * FROM form WHERE id = ?', [
      id,
    ]);
    if (!row) return undefined;
    return {
      ...row,
      fields:
        typeof row.fields === 'string' ? JSON.parse(row.fields) : row.fields,
      domainVerification: Boolean(Number(row.domainVerification)),
    };
  }

  async function countForms(): Promise<number> {
    const [{ n }] = await t.dataSource.query('SELECT COUNT(*) AS n FROM form');
    return Number(n);
  }

  async function post(apiKey: string, json: unknown): Promise<HttpResponse> {
    return request(forms(), { apiKey, json });
  }

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
      expect(res.body).toEqual({
        id,
        name: 'Contact us',
        fields,
        domainVerification: true,
        notifyEmails: [],
        notifyEmailStatus: {},
        apiKeyPrefix: apiKey.slice(0, 12),
        createdAt,
        updatedAt: createdAt,
        apiKey,
        warning: NO_VERIFIED_DOMAIN,
      });

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
      expect(t.app.get(SecretBox).decrypt(row!.apiKeyEncrypted)).toBe(apiKey);
      expect(
        await t.app.get(FormsService).revealApiKey(owner.account.id, id),
      ).toBe(apiKey);

      // The new key works at once, for the new form.
      const read = await request(formUrl(id), { apiKey });
      expect(read.status).toBe(200);
      expect(read.body).toEqual({ ...res.body, apiKey: undefined });
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
      expect(other.status).toBe(404);
      expect(other.body).toEqual(FORM_NOT_FOUND);
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
      expect(res.body).toEqual({
        data: [
          {
            id: mine.form.id,
            name: 'Mine',
            fields: CONTACT_FIELDS,
            domainVerification: false,
            notifyEmails: [],
            notifyEmailStatus: {},
            apiKeyPrefix: mine.apiKey.slice(0, 12),
            createdAt: mine.form.createdAt.toISOString(),
            updatedAt: mine.form.updatedAt.toISOString(),
          },
        ],
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
      const expected = {
        id: form.form.id,
        name: 'Contact',
        fields: CONTACT_FIELDS,
        domainVerification: false,
        notifyEmails: [],
        notifyEmailStatus: {},
        apiKeyPrefix: form.apiKey.slice(0, 12),
        createdAt: form.form.createdAt.toISOString(),
        updatedAt: form.form.updatedAt.toISOString(),
      };
      for (const apiKey of [form.apiKey, owner.apiKey]) {
        const res = await request(formUrl(form.form.id), { apiKey });
        expect(res.status).toBe(200);
        expect(res.body).toEqual(expected);
      }
    });

    it('answers 404 for an unknown id and for odd ids', async () => {
      for (const id of ['no-such-form', 'x'.repeat(150), "' OR 1=1 --", '%']) {
        const res = await request(formUrl(id), { apiKey: owner.apiKey });
        expect(res.status, id).toBe(404);
        expect(res.body).toEqual(FORM_NOT_FOUND);
      }
    });

    it("answers 404 for another account's form, as if it did not exist", async () => {
      const theirs = await createForm(t, stranger.account.id);
      const res = await request(formUrl(theirs.form.id), {
        apiKey: owner.apiKey,
      });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(FORM_NOT_FOUND);
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
        expect(res.status, `${method} ${url}`).toBe(404);
        expect(res.body).toEqual(FORM_NOT_FOUND);
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
        expect(del.status).toBe(404);
        expect(del.body).toEqual(FORM_NOT_FOUND);
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

  describe('PUT /api/v1/forms/:id', () => {
    it('replaces name, fields and domain verification', async () => {
      const form = await createForm(t, owner.account.id);
      const fields = [
        { id: 'company', type: 'text', label: 'Company' },
        { id: 'site', type: 'url', required: false },
      ];
      const res = await request(formUrl(form.form.id), {
        method: 'PUT',
        apiKey: form.apiKey,
        json: { name: 'Leads', fields, domainVerification: true },
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        id: form.form.id,
        name: 'Leads',
        fields,
        domainVerification: true,
        notifyEmails: [],
        notifyEmailStatus: {},
        apiKeyPrefix: form.apiKey.slice(0, 12),
        createdAt: form.form.createdAt.toISOString(),
        updatedAt: res.body.updatedAt,
        warning: NO_VERIFIED_DOMAIN,
      });
      expect(res.body.updatedAt).toMatch(ISO_MS);
      expect(Date.parse(res.body.updatedAt)).toBeGreaterThanOrEqual(
        form.form.updatedAt.getTime(),
      );
      expect(await stored(form.form.id)).toMatchObject({
        name: 'Leads',
        fields,
        domainVerification: true,
        apiKeyHash: sha256(form.apiKey),
      });
      const reread = await request(formUrl(form.form.id), {
        apiKey: form.apiKey,
      });
      expect(reread.body).toEqual(res.body);
    });

    it('resets what the body omits to the defaults', async () => {
      const form = await createForm(t, owner.account.id, {
        domainVerification: true,
      });
      const res = await request(formUrl(form.form.id), {
        method: 'PUT',
        apiKey: owner.apiKey,
        json: { name: 'Only a name' },
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        name: 'Only a name',
        fields: [],
        domainVerification: false,
      });
      expect(await stored(form.form.id)).toMatchObject({
        name: 'Only a name',
        fields: [],
        domainVerification: false,
      });
    });

    it('requires a name', async () => {
      const form = await createForm(t, owner.account.id);
      const res = await request(formUrl(form.form.id), {
        method: 'PUT',
        apiKey: owner.apiKey,
        json: { fields: [] },
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        error: 'Validation failed',
        errors: ['name is required'],
      });
      expect(await stored(form.form.id)).toMatchObject({
        name: 'Contact',
        fields: CONTACT_FIELDS,
      });
    });
  });

  describe('PATCH /api/v1/forms/:id', () => {
    it('warns when domain verification is on but no domain is verified', async () => {
      const form = await createForm(t, owner.account.id);
      const expected = NO_VERIFIED_DOMAIN;
      const on = await request(formUrl(form.form.id), {
        method: 'PATCH',
        apiKey: form.apiKey,
        json: { domainVerification: true },
      });
      expect(on.status).toBe(200);
      expect(on.body.domainVerification).toBe(true);
      expect(on.body.warning).toBe(expected);
      expect((await stored(form.form.id))!.domainVerification).toBe(true);
      const read = await request(formUrl(form.form.id), {
        apiKey: form.apiKey,
      });
      expect(read.body.warning).toBe(expected);
      const list = await request(forms(), { apiKey: form.apiKey });
      expect(list.body.data[0]).not.toHaveProperty('warning');

      const off = await request(formUrl(form.form.id), {
        method: 'PATCH',
        apiKey: form.apiKey,
        json: { domainVerification: false },
      });
      expect(off.status).toBe(200);
      expect(off.body).not.toHaveProperty('warning');
    });

    it('changes only the properties sent', async () => {
      const form = await createForm(t, owner.account.id);
      const renamed = await request(formUrl(form.form.id), {
        method: 'PATCH',
        apiKey: form.apiKey,
        json: { name: 'Renamed' },
      });
      expect(renamed.status).toBe(200);
      expect(renamed.body).toEqual({
        id: form.form.id,
        name: 'Renamed',
        fields: CONTACT_FIELDS,
        domainVerification: false,
        notifyEmails: [],
        notifyEmailStatus: {},
        apiKeyPrefix: form.apiKey.slice(0, 12),
        createdAt: form.form.createdAt.toISOString(),
        updatedAt: renamed.body.updatedAt,
      });

      const switched = await request(formUrl(form.form.id), {
        method: 'PATCH',
        apiKey: form.apiKey,
        json: { domainVerification: true },
      });
      expect(switched.status).toBe(200);
      expect(switched.body).toMatchObject({
        name: 'Renamed',
        fields: CONTACT_FIELDS,
        domainVerification: true,
      });

      const fields = [{ id: 'email', type: 'email', required: true }];
      const refielded = await request(formUrl(form.form.id), {
        method: 'PATCH',
        apiKey: form.apiKey,
        json: { fields },
      });
      expect(refielded.status).toBe(200);
      expect(refielded.body).toMatchObject({
        name: 'Renamed',
        fields,
        domainVerification: true,
      });
      expect(await stored(form.form.id)).toMatchObject({
        name: 'Renamed',
        fields,
        domainVerification: true,
      });
    });

    it('accepts an empty patch and changes nothing', async () => {
      const form = await createForm(t, owner.account.id);
      const res = await request(formUrl(form.form.id), {
        method: 'PATCH',
        apiKey: form.apiKey,
        json: {},
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        name: 'Contact',
        fields: CONTACT_FIELDS,
        domainVerification: false,
      });
    });

    it('refuses null for a property instead of storing it', async () => {
      const form = await createForm(t, owner.account.id);
      const res = await request(formUrl(form.form.id), {
        method: 'PATCH',
        apiKey: form.apiKey,
        json: { name: null },
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        error: 'Validation failed',
        errors: ['name must be a string'],
      });
      expect(await stored(form.form.id)).toMatchObject({ name: 'Contact' });
    });

    it('refuses keys, hashes and ids in the body', async () => {
      const form = await createForm(t, owner.account.id);
      const other = await createAccount(t);
      for (const [property, value] of [
        ['apiKeyHash', sha256('fgk_mine')],
        ['apiKey', 'fgk_mine'],
        ['apiKeyPrefix', 'fgk_mine'],
        ['id', 'mine'],
        ['accountId', other.account.id],
        ['createdAt', '2000-01-01T00:00:00.000Z'],
      ]) {
        const res = await request(formUrl(form.form.id), {
          method: 'PATCH',
          apiKey: form.apiKey,
          json: { [property]: value },
        });
        expect(res.status, property).toBe(400);
        expect(res.body).toEqual({
          error: 'Validation failed',
          errors: [`property ${property} should not exist`],
        });
      }
      expect(await stored(form.form.id)).toMatchObject({
        id: form.form.id,
        accountId: owner.account.id,
        apiKeyHash: sha256(form.apiKey),
      });
    });
  });

  describe('DELETE /api/v1/forms/:id', () => {
    it('deletes the form with its submissions and domains, and its key stops working', async () => {
      const form = await createForm(t, owner.account.id);
      const keep = await createForm(t, owner.account.id);
      const when = '2025-01-02 03:04:05.678';
      for (const target of [form, keep]) {
        await t.dataSource.query(
          'INSERT INTO submission (id, formId, data, createdAt) VALUES (?, ?, ?, ?)',
          [
            `s-${target.form.id.slice(0, 20)}`,
            target.form.id,
            '{"a":"b"}',
            when,
          ],
        );
        await t.dataSource.query(
          'INSERT INTO form_domain (id, formId, domain, token, status, createdAt) VALUES (?, ?, ?, ?, ?, ?)',
          [
            `d-${target.form.id.slice(0, 20)}`,
            target.form.id,
            'example.com',
            'token',
            'pending',
            when,
          ],
        );
      }

      const res = await request(formUrl(form.form.id), {
        method: 'DELETE',
        apiKey: form.apiKey,
      });
      expect(res.status).toBe(204);
      expect(res.text).toBe('');

      expect(await stored(form.form.id)).toBeUndefined();
      const count = async (table: string, formId: string) =>
        Number(
          (
            await t.dataSource.query(
              `SELECT COUNT(*) AS n FROM ${table} WHERE formId = ?`,
              [formId],
            )
          )[0].n,
        );
      expect(await count('submission', form.form.id)).toBe(0);
      expect(await count('form_domain', form.form.id)).toBe(0);
      expect(await count('submission', keep.form.id)).toBe(1);
      expect(await count('form_domain', keep.form.id)).toBe(1);

      const after = await request(forms(), { apiKey: form.apiKey });
      expect(after.status).toBe(403);
      expect(after.body).toEqual({ error: 'Invalid API key' });
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
      expect(old.body).toEqual({ error: 'Invalid API key' });

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
        'fields.0.type must be one of: text, email, textarea, number, url, tel, date, select, checkbox',
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
        expect(created.status).toBe(400);
        expect(created.body).toEqual({
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
          'fields.1.type must be one of: text, email, textarea, number, url, tel, date, select, checkbox',
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
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
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
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body).toEqual({
          error: 'Validation failed',
          errors: ['body must be a JSON object'],
        });
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
        ['/api/v1/forms', 'get', ['200', '401', '403']],
        ['/api/v1/forms', 'post', ['201', '400', '401', '403', '409']],
        ['/api/v1/forms/{id}', 'get', ['200', '401', '403', '404']],
        ['/api/v1/forms/{id}', 'put', ['200', '400', '401', '403', '404']],
        ['/api/v1/forms/{id}', 'patch', ['200', '400', '401', '403', '404']],
        ['/api/v1/forms/{id}', 'delete', ['204', '401', '403', '404']],
        ['/api/v1/forms/{id}/api-key', 'post', ['200', '401', '403', '404']],
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
      expect(schemas.CreateFormDto.required).toEqual(['name']);
      expect(Object.keys(schemas.CreateFormDto.properties).sort()).toEqual([
        'domainVerification',
        'fields',
        'name',
        'notifyEmails',
      ]);
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
      ]);
      expect(schemas.PatchFormDto.required ?? []).toEqual([]);
      expect(Object.keys(schemas.FormResponseDto.properties).sort()).toEqual(
        [...FORM_KEYS, 'warning'].sort(),
      );
      expect(schemas.FormResponseDto.required ?? []).not.toContain('warning');
      expect(schemas.CreatedFormResponseDto.properties.apiKey).toBeDefined();
      expect(schemas.FormResponseDto.properties.name.example).toBe('Contact');
      // Validated on its own: other features' routes are not this suite's business.
      const formsPaths = Object.fromEntries(
        Object.entries(doc.paths).filter(
          ([path]) =>
            path.startsWith('/api/v1/forms') &&
            !/submissions|domains|webhooks|deliveries/.test(path),
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
