// PUT and PATCH /api/v1/forms/:id: full and partial updates and what they store.
import { createAccount, type TestAccount } from '../../factories/accounts.js';
import { CONTACT_FIELDS, createForm } from '../../factories/forms.js';
import { expectProblem } from '../../support/answers.js';
import { request } from '../../support/http.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import {
  formsApi,
  ISO_MS,
  NO_VERIFIED_DOMAIN,
  sha256,
  DEFAULT_SPAM_FILTER,
  NO_REDIRECT,
} from '../../support/forms-api.js';

describe('forms API: PUT and PATCH (e2e)', () => {
  let t: TestApp;
  let owner: TestAccount;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await createAccount(t);
  });
  afterAll(async () => {
    await t.close();
  });

  const { forms, formUrl, stored } = formsApi(() => t);

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
        ...NO_REDIRECT,
        retentionDays: null,
        notifyEmails: [],
        notifyEmailStatus: {},
        captcha: null,
        autoresponse: null,
        spamFilter: DEFAULT_SPAM_FILTER,
        notifyEmailErrors: {},
        apiKeyPrefix: form.apiKey.slice(0, 12),
        apiKeyLastUsedAt: expect.stringMatching(ISO_MS),
        previousApiKey: null,
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
      expectProblem(res, 400, {
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
        ...NO_REDIRECT,
        retentionDays: null,
        notifyEmails: [],
        notifyEmailStatus: {},
        captcha: null,
        autoresponse: null,
        spamFilter: DEFAULT_SPAM_FILTER,
        notifyEmailErrors: {},
        apiKeyPrefix: form.apiKey.slice(0, 12),
        apiKeyLastUsedAt: expect.stringMatching(ISO_MS),
        previousApiKey: null,
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
      expectProblem(res, 400, {
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
        expectProblem(
          res,
          400,
          {
            error: 'Validation failed',
            errors: [`property ${property} should not exist`],
          },
          property,
        );
      }
      expect(await stored(form.form.id)).toMatchObject({
        id: form.form.id,
        accountId: owner.account.id,
        apiKeyHash: sha256(form.apiKey),
      });
    });
  });
});
