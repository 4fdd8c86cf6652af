// Domain verification end to end: adding, listing and deleting the domains of a form through
// /api/v1/forms/:id/domains, access, and the OpenAPI description. Verifying against a real DNS
// server is in domains-verify.e2e-spec.ts, enforcement on submit in domains-submit.e2e-spec.ts.
import { DomainVerificationService } from '../../../src/domain-verification/domain-verification.service.js';
import { createAccount, type TestAccount } from '../../factories/accounts.js';
import { createForm } from '../../factories/forms.js';
import {
  startDnsServer,
  type TestDnsServer,
} from '../../support/dns-server.js';
import { expectProblem } from '../../support/answers.js';
import { request, type RequestOptions } from '../../support/http.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import {
  DOMAIN_NOT_FOUND,
  FORM_NOT_FOUND,
  INVALID_API_KEY,
} from '../../support/errors.js';
import { domainsApi } from '../../support/domains-api.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const TOKEN = /^[0-9a-f]{40}$/;
const NO_VERIFIED_WARNING =
  'Domain verification is on but no domain is verified yet: only development hosts (localhost, 127.0.0.1, 192.168.x.x) can submit.';

describe('domain verification (e2e)', () => {
  let dns: TestDnsServer;
  let t: TestApp;
  let owner: TestAccount;

  beforeAll(async () => {
    dns = await startDnsServer();
    t = await createTestApp({
      env: { DNS_SERVERS: dns.address, SUBMIT_RATE_LIMIT: '1000' },
    });
    owner = await createAccount(t);
  });
  afterAll(async () => {
    await t?.close();
    await dns?.close();
  });
  afterEach(() => dns.reset());

  const { domainsUrl, api, addDomain, verify, storedDomains } = domainsApi(
    () => t,
  );

  describe('adding a domain', () => {
    it('answers 201 with the TXT record to publish and stores it pending', async () => {
      const form = await createForm(t, owner.account.id);
      const res = await addDomain(form, 'example.com');
      expect(res.status).toBe(201);
      const { token } = res.body;
      expect(token).toMatch(TOKEN);
      expect(res.body).toEqual({
        domain: 'example.com',
        status: 'pending',
        token,
        record: {
          type: 'TXT',
          name: 'example.com',
          value: `formgate-verification=${token}`,
          alternativeName: '_formgate.example.com',
        },
        verifiedAt: null,
        lastCheckedAt: null,
        lastError: null,
        createdAt: expect.stringMatching(ISO),
      });
      const rows = await storedDomains(form.form.id);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        domain: 'example.com',
        token,
        status: 'pending',
        verifiedAt: null,
        lastCheckedAt: null,
        lastError: null,
      });
    });

    it('gives every domain its own random token', async () => {
      const form = await createForm(t, owner.account.id);
      const a = await addDomain(form, 'a-example.com');
      const b = await addDomain(form, 'b-example.com');
      expect([a.status, b.status]).toEqual([201, 201]);
      expect(a.body.token).not.toBe(b.body.token);
    });

    it('normalises case, spaces, a trailing dot and IDN to lower-case ASCII', async () => {
      const form = await createForm(t, owner.account.id);
      const res = await addDomain(form, '  Bücher.DE.  ');
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        domain: 'xn--bcher-kva.de',
        record: {
          name: 'xn--bcher-kva.de',
          alternativeName: '_formgate.xn--bcher-kva.de',
        },
      });
      expect(
        (await storedDomains(form.form.id)).map((row) => row.domain),
      ).toEqual(['xn--bcher-kva.de']);
    });

    it.each([
      ['https://example.com', /without https:\/\//],
      ['example.com:8443', /port/],
      ['example.com/contact', /without a path/],
      ['user@example.com', /user info/],
      ['*.example.com', /wildcards/],
      ['localhost', /development hosts/],
      ['app.localhost', /development hosts/],
      ['127.0.0.1', /IP addresses/],
      ['192.168.1.10', /IP addresses/],
      ['[::1]', /IP addresses/],
      ['2001:db8::1', /IP addresses/],
      ['com', /bare top-level domain/],
      ['example.123', /not a valid host name|top-level domain/],
      ['exa mple.com', /spaces/],
      ['under_score.example.com', /label "under_score"/],
      ['', /must not be empty/],
    ])('refuses %j with a 400 naming the problem', async (domain, problem) => {
      const form = await createForm(t, owner.account.id);
      const res = await addDomain(form, domain);
      expectProblem(res, 400, {
        error: 'Validation failed',
        errors: [expect.stringMatching(problem)],
      });
      expect(await storedDomains(form.form.id)).toEqual([]);
    });

    it.each([
      [{}, 'domain is required'],
      [{ domain: 42 }, 'domain must be a string'],
      [{ domain: ['example.com'] }, 'domain must be a string'],
      [
        { domain: 'example.com', token: 'mine' },
        'property token should not exist',
      ],
    ])('refuses the body %j with a 400', async (json, message) => {
      const form = await createForm(t, owner.account.id);
      const res = await api(form, '', { json });
      expectProblem(res, 400, {
        error: 'Validation failed',
        errors: [message],
      });
      expect(await storedDomains(form.form.id)).toEqual([]);
    });

    it('answers 409 when the domain is already on the form, however it is spelled', async () => {
      const form = await createForm(t, owner.account.id);
      expect((await addDomain(form, 'example.com')).status).toBe(201);
      for (const spelling of ['example.com', 'EXAMPLE.com.', ' example.com ']) {
        const res = await addDomain(form, spelling);
        expectProblem(res, 409, 'example.com is already a domain of this form');
      }
      expect(await storedDomains(form.form.id)).toHaveLength(1);
    });

    it('lets two forms add the same domain, each with its own token', async () => {
      const first = await createForm(t, owner.account.id);
      const second = await createForm(t, owner.account.id);
      const a = await addDomain(first, 'shared.example');
      const b = await addDomain(second, 'shared.example');
      expect([a.status, b.status]).toEqual([201, 201]);
      expect(a.body.token).not.toBe(b.body.token);
    });

    it('caps a form at 20 domains with a 409', async () => {
      const form = await createForm(t, owner.account.id);
      for (let i = 0; i < 20; i += 1) {
        expect((await addDomain(form, `site${i}.example`)).status).toBe(201);
      }
      const res = await addDomain(form, 'one-too-many.example');
      expectProblem(
        res,
        409,
        'This form already has 20 domains, the most it can have: delete one before adding another',
      );
      expect(await storedDomains(form.form.id)).toHaveLength(20);
    });
  });

  describe('listing domains', () => {
    it('lists the domains oldest first, without a warning while verification is off', async () => {
      const form = await createForm(t, owner.account.id);
      await addDomain(form, 'first.example');
      await addDomain(form, 'second.example');
      const res = await api(form);
      expect(res.status).toBe(200);
      expect(res.body.warning).toBeNull();
      expect(
        res.body.data.map((d: { domain: string; status: string }) => [
          d.domain,
          d.status,
        ]),
      ).toEqual([
        ['first.example', 'pending'],
        ['second.example', 'pending'],
      ]);
      expect(Object.keys(res.body.data[0]).sort()).toEqual(
        [
          'createdAt',
          'domain',
          'lastCheckedAt',
          'lastError',
          'record',
          'status',
          'token',
          'verifiedAt',
        ].sort(),
      );
    });

    it('warns when verification is on but no domain is verified, until one is', async () => {
      const form = await createForm(t, owner.account.id, {
        domainVerification: true,
      });
      const empty = await api(form);
      expect(empty.status).toBe(200);
      expect(empty.body).toEqual({ data: [], warning: NO_VERIFIED_WARNING });
      const service = t.app.get(DomainVerificationService);
      await expect(service.warningFor(form.form)).resolves.toBe(
        NO_VERIFIED_WARNING,
      );

      const added = await addDomain(form, 'warn.example');
      expect((await api(form)).body.warning).toBe(NO_VERIFIED_WARNING);

      dns.setTxt('warn.example', [added.body.record.value]);
      expect((await verify(form, 'warn.example')).body.status).toBe('verified');
      const after = await api(form);
      expect(after.body.warning).toBeNull();
      await expect(service.warningFor(form.form)).resolves.toBeNull();
    });
  });

  describe('deleting a domain', () => {
    it('answers 204 and removes it; a second delete answers 404', async () => {
      const form = await createForm(t, owner.account.id);
      await addDomain(form, 'gone.example');
      await addDomain(form, 'stays.example');
      const res = await api(form, '/GONE.example', { method: 'DELETE' });
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect(
        (await storedDomains(form.form.id)).map((row) => row.domain),
      ).toEqual(['stays.example']);
      const again = await api(form, '/gone.example', { method: 'DELETE' });
      expectProblem(again, 404, DOMAIN_NOT_FOUND);
    });
  });

  describe('access', () => {
    it('answers 404 "Form not found" to the key of another form, and changes nothing', async () => {
      const mine = await createForm(t, owner.account.id);
      const other = await createForm(t, owner.account.id);
      await addDomain(mine, 'mine.example');
      const asOther = (path: string, options: RequestOptions = {}) =>
        request(`${domainsUrl(mine.form.id)}${path}`, {
          apiKey: other.apiKey,
          ...options,
        });
      const attempts = [
        await asOther(''),
        await asOther('', { json: { domain: 'theirs.example' } }),
        await asOther('/mine.example/verify', { method: 'POST' }),
        await asOther('/mine.example', { method: 'DELETE' }),
      ];
      for (const res of attempts) {
        expectProblem(res, 404, FORM_NOT_FOUND);
      }
      expect(
        (await storedDomains(mine.form.id)).map((row) => [
          row.domain,
          row.lastCheckedAt,
        ]),
      ).toEqual([['mine.example', null]]);
    });

    it('answers 404 to an account key of another account', async () => {
      const form = await createForm(t, owner.account.id);
      const stranger = await createAccount(t);
      const res = await request(domainsUrl(form.form.id), {
        apiKey: stranger.apiKey,
      });
      expectProblem(res, 404, FORM_NOT_FOUND);
    });

    it("lets the owner's account key manage the form's domains", async () => {
      const form = await createForm(t, owner.account.id);
      const res = await request(domainsUrl(form.form.id), {
        apiKey: owner.apiKey,
        json: { domain: 'account-key.example' },
      });
      expect(res.status).toBe(201);
      expect(
        (await storedDomains(form.form.id)).map((row) => row.domain),
      ).toEqual(['account-key.example']);
    });

    it('answers 401 without a key and 403 with a wrong one', async () => {
      const form = await createForm(t, owner.account.id);
      const none = await request(domainsUrl(form.form.id));
      expectProblem(
        none,
        401,
        'API key required: send it in the x-api-key header or the apiKey query parameter',
      );
      const wrong = await request(domainsUrl(form.form.id), {
        apiKey: 'fgk_nope',
        json: { domain: 'x.example' },
      });
      expectProblem(wrong, 403, INVALID_API_KEY);
      expect(await storedDomains(form.form.id)).toEqual([]);
    });

    it('accepts the key in the apiKey query parameter', async () => {
      const form = await createForm(t, owner.account.id);
      const res = await request(
        `${domainsUrl(form.form.id)}?apiKey=${encodeURIComponent(form.apiKey)}`,
      );
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ data: [], warning: null });
    });
  });

  describe('OpenAPI', () => {
    it('documents every domain route with the TXT instructions', async () => {
      const res = await request(`${t.url}/docs-json`);
      expect(res.status).toBe(200);
      const paths = res.body.paths as Record<
        string,
        Record<string, { description?: string; responses: object }>
      >;
      const list = paths['/api/v1/forms/{id}/domains'];
      const one = paths['/api/v1/forms/{id}/domains/{domain}'];
      const check = paths['/api/v1/forms/{id}/domains/{domain}/verify'];
      expect(Object.keys(list).sort()).toEqual(['get', 'post']);
      expect(Object.keys(one)).toEqual(['delete']);
      expect(Object.keys(check)).toEqual(['post']);
      for (const operation of [list.post, check.post]) {
        expect(operation.description).toContain(
          'formgate-verification=<token>',
        );
        expect(operation.description).toContain('_formgate.');
      }
      expect(Object.keys(list.post.responses).sort()).toEqual(
        [
          '201',
          '400',
          '401',
          '403',
          '404',
          '409',
          '413',
          '415',
          '422',
          '503',
        ].sort(),
      );
      expect(Object.keys(check.post.responses).sort()).toEqual(
        ['200', '401', '403', '404', '409', '422', '429', '503'].sort(),
      );
      const schemas = res.body.components.schemas;
      expect(Object.keys(schemas.DomainResponseDto.properties).sort()).toEqual(
        [
          'createdAt',
          'domain',
          'lastCheckedAt',
          'lastError',
          'record',
          'status',
          'token',
          'verifiedAt',
        ].sort(),
      );
    });
  });
});
