// API key authentication on /api/v1: the two transports, the 401/403 answers, account
// key revocation, and keys never reaching a log line.
import { randomBytes } from 'node:crypto';
import { AccountsService } from '../../../src/accounts/accounts.service.js';
import { createAccount, type TestAccount } from '../../factories/accounts.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import { expectProblem } from '../../support/answers.js';
import { request } from '../../support/http.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import { API_KEY_REQUIRED, INVALID_API_KEY } from '../../support/errors.js';
import { storedForm } from '../../support/stored-rows.js';

describe('API key authentication (e2e)', () => {
  let t: TestApp;
  let owner: TestAccount;
  let contact: TestForm;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await createAccount(t);
    contact = await createForm(t, owner.account.id, { name: 'Contact' });
  });
  afterAll(async () => {
    await t.close();
  });

  const forms = () => `${t.url}/api/v1/forms`;

  describe('without a key', () => {
    it('answers 401 naming the header and the query parameter', async () => {
      const res = await request(forms());
      expect(res.status).toBe(401);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.body).toEqual(API_KEY_REQUIRED);
    });

    it('answers 401 on every form route, before looking at the form', async () => {
      const routes: Array<[string, string]> = [
        ['GET', `${forms()}/${contact.form.id}`],
        ['PUT', `${forms()}/${contact.form.id}`],
        ['PATCH', `${forms()}/${contact.form.id}`],
        ['DELETE', `${forms()}/${contact.form.id}`],
        ['POST', `${forms()}/${contact.form.id}/api-key`],
        ['GET', `${forms()}/no-such-form`],
      ];
      for (const [method, url] of routes) {
        const res = await request(url, {
          method,
          json:
            method === 'PUT' || method === 'PATCH' ? { name: 'x' } : undefined,
        });
        expectProblem(res, 401, API_KEY_REQUIRED, `${method} ${url}`);
      }
      expect((await storedForm(t, contact.form.id))?.name).toBe('Contact');
    });

    it('treats an empty header or query value as no key', async () => {
      const header = await request(forms(), { headers: { 'x-api-key': '' } });
      expectProblem(header, 401, API_KEY_REQUIRED);
      const query = await request(`${forms()}?apiKey=`);
      expectProblem(query, 401, API_KEY_REQUIRED);
    });
  });

  describe('with a key that matches nothing', () => {
    it('answers 403 for a well-formed but unknown form key', async () => {
      const res = await request(forms(), {
        apiKey: `fgk_${randomBytes(32).toString('base64url')}`,
      });
      expectProblem(res, 403, INVALID_API_KEY);
    });

    it('answers 403 for an unknown account key and for garbage', async () => {
      for (const key of [
        `fga_${randomBytes(32).toString('base64url')}`,
        'not-a-key',
        'x'.repeat(5000),
        contact.apiKey.slice(0, -1),
      ]) {
        const res = await request(forms(), { apiKey: key });
        expectProblem(res, 403, INVALID_API_KEY);
      }
    });

    it('answers 403 for an account key that was revoked', async () => {
      const accounts = t.app.get(AccountsService);
      const { key, apiKey } = await accounts.createApiKey(
        owner.account.id,
        'to revoke',
      );
      expect((await request(forms(), { apiKey })).status).toBe(200);
      await accounts.revokeApiKey(owner.account.id, key.id);
      const res = await request(forms(), { apiKey });
      expectProblem(res, 403, INVALID_API_KEY);
    });
  });

  describe('transports', () => {
    it('accepts the key in the x-api-key header', async () => {
      const res = await request(`${forms()}/${contact.form.id}`, {
        headers: { 'x-api-key': contact.apiKey },
      });
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(contact.form.id);
    });

    it('accepts the key in the apiKey query parameter', async () => {
      const res = await request(
        `${forms()}/${contact.form.id}?apiKey=${encodeURIComponent(contact.apiKey)}`,
      );
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(contact.form.id);
    });

    it('accepts an account key in either transport', async () => {
      const header = await request(forms(), { apiKey: owner.apiKey });
      expect(header.status).toBe(200);
      const query = await request(`${forms()}?apiKey=${owner.apiKey}`);
      expect(query.status).toBe(200);
      expect(query.body).toEqual(header.body);
    });

    it('prefers the header when both are sent', async () => {
      const res = await request(`${forms()}?apiKey=not-a-key`, {
        apiKey: contact.apiKey,
      });
      expect(res.status).toBe(200);
    });

    it('answers a repeated apiKey query parameter without failing', async () => {
      const twoBad = await request(`${forms()}?apiKey=a&apiKey=b`);
      expectProblem(twoBad, 403, INVALID_API_KEY);
      const twice = await request(
        `${forms()}?apiKey=${contact.apiKey}&apiKey=${contact.apiKey}`,
      );
      expect(twice.status).toBe(200);
      expect(twice.body.data.map((f: { id: string }) => f.id)).toEqual([
        contact.form.id,
      ]);
    });

    it('answers repeated x-api-key headers without failing', async () => {
      const headers = new Headers();
      headers.append('x-api-key', contact.apiKey);
      headers.append('x-api-key', owner.apiKey);
      const res = await fetch(forms(), { headers });
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual(INVALID_API_KEY);
    });
  });

  describe('logs', () => {
    it('never writes a key to a log line, also when it travels in the query', async () => {
      const account = await createAccount(t);
      const form = await createForm(t, account.account.id);
      const created = await request(forms(), {
        apiKey: account.apiKey,
        json: { name: 'Logged' },
      });
      expect(created.status).toBe(201);
      const before = t.logs.length;
      for (const key of [form.apiKey, account.apiKey, created.body.apiKey]) {
        expect((await request(`${forms()}?apiKey=${key}`)).status).toBe(200);
        expect((await request(forms(), { apiKey: key })).status).toBe(200);
      }
      // A rejected key is a secret too (a typo of the real one).
      const wrong = `${form.apiKey}x`;
      expect((await request(`${forms()}?apiKey=${wrong}`)).status).toBe(403);
      const regenerated = await request(
        `${forms()}/${form.form.id}/api-key?apiKey=${form.apiKey}`,
        { method: 'POST' },
      );
      expect(regenerated.status).toBe(200);

      const lines = t.logs.slice(before);
      // The requests were logged (so the search below means something), redacted.
      expect(lines.some((line) => line.includes('apiKey=[REDACTED]'))).toBe(
        true,
      );
      for (const key of [
        form.apiKey,
        account.apiKey,
        created.body.apiKey,
        wrong,
        regenerated.body.apiKey,
      ]) {
        expect(t.logs.filter((line) => line.includes(key))).toEqual([]);
        // Not even the secret part alone.
        const secret = key.slice(4);
        expect(t.logs.filter((line) => line.includes(secret))).toEqual([]);
      }
    });

    it('redacts keys sent with an encoded, mixed-case or repeated parameter name', async () => {
      const account = await createAccount(t);
      const form = await createForm(t, account.account.id);
      const encoded = form.apiKey.replace('_', '%5F');
      const before = t.logs.length;
      for (const query of [
        `%61piKey=${encoded}`,
        `apiKey=${form.apiKey}&APIKEY=${form.apiKey}&ApiKey=${encoded}`,
        `apiKey=${encoded}&apiKey=${form.apiKey}`,
      ]) {
        const res = await request(`${forms()}?${query}`);
        expect(res.status).toBe(200);
        expect(res.body.data.map((f: { id: string }) => f.id)).toEqual([
          form.form.id,
        ]);
      }
      // A key in an unrelated parameter or the path is redacted too.
      expect(
        (await request(`${forms()}?note=${encoded}`, { apiKey: form.apiKey }))
          .status,
      ).toBe(200);
      expect(
        (await request(`${forms()}/${encoded}`, { apiKey: form.apiKey }))
          .status,
      ).toBe(404);

      const lines = t.logs.slice(before);
      expect(lines.some((line) => line.includes('%61piKey=[REDACTED]'))).toBe(
        true,
      );
      const secret = form.apiKey.slice(4);
      expect(lines.filter((line) => line.includes(secret))).toEqual([]);
    });
  });
});
