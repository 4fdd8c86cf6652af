// Domain verification end to end: the /api/v1/forms/:id/domains API against a real DNS
// server on loopback, and its enforcement on POST /api/submit/:formId.
import { DomainVerificationService } from '../src/domain-verification/domain-verification.service.js';
import { FormDomain } from '../src/domain-verification/form-domain.entity.js';
import { Form } from '../src/forms/form.entity.js';
import { Submission } from '../src/submissions/submission.entity.js';
import { createAccount, type TestAccount } from './factories/accounts.js';
import { createForm, type TestForm } from './factories/forms.js';
import { startDnsServer, type TestDnsServer } from './support/dns-server.js';
import { request, type RequestOptions } from './support/http.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import {
  DOMAIN_NOT_FOUND,
  FORM_NOT_FOUND,
  INVALID_API_KEY,
} from './support/errors.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const TOKEN = /^[0-9a-f]{40}$/;
const NO_VERIFIED_WARNING =
  'Domain verification is on but no domain is verified yet: only development hosts (localhost, 127.0.0.1, 192.168.x.x) can submit.';
const REFUSAL =
  'Submissions to this form are only accepted from its verified domains';

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

  const domainsUrl = (formId: string) =>
    `${t.url}/api/v1/forms/${formId}/domains`;
  const api = (form: TestForm, path = '', options: RequestOptions = {}) =>
    request(`${domainsUrl(form.form.id)}${path}`, {
      apiKey: form.apiKey,
      ...options,
    });
  const addDomain = (form: TestForm, domain: unknown) =>
    api(form, '', { json: { domain } });
  const verify = (form: TestForm, domain: string) =>
    api(form, `/${encodeURIComponent(domain)}/verify`, { method: 'POST' });
  const storedDomains = (formId: string) =>
    t.dataSource
      .getRepository(FormDomain)
      .find({ where: { formId }, order: { domain: 'ASC' } });
  const storedDomain = (formId: string, domain: string) =>
    t.dataSource.getRepository(FormDomain).findOneBy({ formId, domain });

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
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
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
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
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
        expect(res.status).toBe(409);
        expect(res.body).toEqual({
          error: 'example.com is already a domain of this form',
        });
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
      expect(res.status).toBe(409);
      expect(res.body).toEqual({
        error:
          'This form already has 20 domains, the most it can have: delete one before adding another',
      });
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

  describe('verifying a domain', () => {
    it('add → publish → verify makes the domain verified', async () => {
      const form = await createForm(t, owner.account.id);
      const added = await addDomain(form, 'example.com');
      dns.setTxt('example.com', [added.body.record.value]);
      const before = Date.now();
      const res = await verify(form, 'example.com');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        ...added.body,
        status: 'verified',
        verifiedAt: expect.stringMatching(ISO),
        lastCheckedAt: expect.stringMatching(ISO),
        lastError: null,
      });
      expect(Date.parse(res.body.verifiedAt)).toBeGreaterThanOrEqual(
        before - 5,
      );
      const row = await storedDomain(form.form.id, 'example.com');
      expect(row).toMatchObject({ status: 'verified', lastError: null });
      expect(row!.verifiedAt!.toISOString()).toBe(res.body.verifiedAt);
      expect(row!.lastCheckedAt!.toISOString()).toBe(res.body.lastCheckedAt);
      expect(dns.queries.map((q) => q.name.toLowerCase())).toEqual(
        expect.arrayContaining(['example.com', '_formgate.example.com']),
      );
    });

    it('stays pending with lastError when the TXT record holds another token', async () => {
      const form = await createForm(t, owner.account.id);
      const added = await addDomain(form, 'example.com');
      dns.setTxt('example.com', [
        'formgate-verification=0000000000000000000000000000000000000000',
      ]);
      const res = await verify(form, 'example.com');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        status: 'pending',
        verifiedAt: null,
        lastCheckedAt: expect.stringMatching(ISO),
        lastError: `No TXT record ${added.body.record.value} found on example.com or _formgate.example.com. DNS changes can take a while to appear: verify again later.`,
      });
      const row = await storedDomain(form.form.id, 'example.com');
      expect(row).toMatchObject({
        status: 'pending',
        verifiedAt: null,
        lastError: res.body.lastError,
      });
      expect(row!.lastCheckedAt).toBeInstanceOf(Date);
    });

    it('stays pending and says so when the domain does not exist (NXDOMAIN)', async () => {
      const form = await createForm(t, owner.account.id);
      const added = await addDomain(form, 'nowhere.example');
      const res = await verify(form, 'nowhere.example');
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('pending');
      expect(res.body.lastError).toBe(
        `No TXT record ${added.body.record.value} found on nowhere.example or _formgate.nowhere.example (nowhere.example does not exist in DNS). DNS changes can take a while to appear: verify again later.`,
      );
      expect(
        (await storedDomain(form.form.id, 'nowhere.example'))?.lastError,
      ).toBe(res.body.lastError);
    });

    it('stays pending when the domain has no TXT records at all', async () => {
      const form = await createForm(t, owner.account.id);
      await addDomain(form, 'empty.example');
      dns.setTxt('empty.example', []);
      const res = await verify(form, 'empty.example');
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('pending');
      expect(res.body.lastError).toMatch(
        /^No TXT record formgate-verification=[0-9a-f]{40} found on empty\.example or _formgate\.empty\.example\. /,
      );
    });

    it('answers pending with "DNS lookup timed out" within the timeout when the server is silent', async () => {
      const form = await createForm(t, owner.account.id);
      await addDomain(form, 'slow.example');
      dns.setSilent(true);
      const started = performance.now();
      const res = await verify(form, 'slow.example');
      const elapsed = performance.now() - started;
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        status: 'pending',
        verifiedAt: null,
        lastCheckedAt: expect.stringMatching(ISO),
        lastError:
          'DNS lookup timed out for slow.example and _formgate.slow.example. Check that the record is published, then verify again in a few minutes.',
      });
      // Bounded by the resolver's timeout and retry (≈2.25 s, capped at 3 s), well under
      // the 5 s request deadline.
      expect(elapsed).toBeGreaterThan(1000);
      expect(elapsed).toBeLessThan(4000);
      expect(dns.queries.length).toBeGreaterThanOrEqual(2);
      expect(
        (await storedDomain(form.form.id, 'slow.example'))?.lastError,
      ).toBe(res.body.lastError);
    });

    it('reports a failing DNS server (SERVFAIL) in lastError', async () => {
      const form = await createForm(t, owner.account.id);
      await addDomain(form, 'broken.example');
      dns.setRcode('broken.example', 'SERVFAIL');
      dns.setRcode('_formgate.broken.example', 'SERVFAIL');
      const res = await verify(form, 'broken.example');
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('pending');
      expect(res.body.lastError).toBe(
        'The DNS server failed to answer (SERVFAIL) for broken.example and _formgate.broken.example. Check that the record is published, then verify again in a few minutes.',
      );
    });

    it('joins a TXT record split into several strings', async () => {
      const form = await createForm(t, owner.account.id);
      const added = await addDomain(form, 'chunked.example');
      const value: string = added.body.record.value;
      dns.setTxt('chunked.example', [
        [value.slice(0, 10), value.slice(10, 30), value.slice(30)],
      ]);
      const res = await verify(form, 'chunked.example');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: 'verified', lastError: null });
    });

    it('finds the token among several TXT records', async () => {
      const form = await createForm(t, owner.account.id);
      const added = await addDomain(form, 'busy.example');
      dns.setTxt('busy.example', [
        'v=spf1 include:_spf.example.net -all',
        ['google-site-verification=', 'abcdef'],
        added.body.record.value,
        'formgate-verification=someone-elses-token',
      ]);
      const res = await verify(form, 'busy.example');
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('verified');
    });

    it('accepts the record on _formgate.<domain>', async () => {
      const form = await createForm(t, owner.account.id);
      const added = await addDomain(form, 'alt.example');
      dns.setTxt('alt.example', ['v=spf1 -all']);
      dns.setTxt('_formgate.alt.example', [added.body.record.value]);
      const res = await verify(form, 'alt.example');
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('verified');
      expect((await storedDomain(form.form.id, 'alt.example'))?.status).toBe(
        'verified',
      );
    });

    it('tolerates surrounding spaces and quotes a DNS panel stored literally', async () => {
      const form = await createForm(t, owner.account.id);
      const added = await addDomain(form, 'quoted.example');
      dns.setTxt('quoted.example', [`  "${added.body.record.value}" `]);
      const res = await verify(form, 'quoted.example');
      expect(res.body.status).toBe('verified');
    });

    it('does not accept a record that only contains the value inside other text', async () => {
      const form = await createForm(t, owner.account.id);
      const added = await addDomain(form, 'partial.example');
      dns.setTxt('partial.example', [`x${added.body.record.value}`]);
      const res = await verify(form, 'partial.example');
      expect(res.body.status).toBe('pending');
    });

    it('keeps a verified domain verified when the record later disappears', async () => {
      const form = await createForm(t, owner.account.id);
      const added = await addDomain(form, 'kept.example');
      dns.setTxt('kept.example', [added.body.record.value]);
      const first = await verify(form, 'kept.example');
      expect(first.body.status).toBe('verified');
      dns.remove('kept.example');
      const again = await verify(form, 'kept.example');
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({
        status: 'verified',
        verifiedAt: first.body.verifiedAt,
        lastError: expect.stringMatching(
          /^The record was not found this time; the domain stays verified until it is deleted\. No TXT record/,
        ),
      });
      expect((await storedDomain(form.form.id, 'kept.example'))?.status).toBe(
        'verified',
      );
    });

    it('finds the domain in the path whatever its case or IDN spelling', async () => {
      const form = await createForm(t, owner.account.id);
      const added = await addDomain(form, 'bücher.de');
      dns.setTxt('xn--bcher-kva.de', [added.body.record.value]);
      const res = await verify(form, 'BÜCHER.de');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        domain: 'xn--bcher-kva.de',
        status: 'verified',
      });
    });

    it.each(['unknown.example', 'not a domain', 'localhost'])(
      'answers 404 for %j, a domain the form does not have',
      async (domain) => {
        const form = await createForm(t, owner.account.id);
        const res = await verify(form, domain);
        expect(res.status).toBe(404);
        expect(res.body).toEqual(DOMAIN_NOT_FOUND);
      },
    );
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
      expect(again.status).toBe(404);
      expect(again.body).toEqual(DOMAIN_NOT_FOUND);
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
        expect(res.status).toBe(404);
        expect(res.body).toEqual(FORM_NOT_FOUND);
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
      expect(res.status).toBe(404);
      expect(res.body).toEqual(FORM_NOT_FOUND);
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
      expect(none.status).toBe(401);
      expect(none.body).toEqual({
        error:
          'API key required: send it in the x-api-key header or the apiKey query parameter',
      });
      const wrong = await request(domainsUrl(form.form.id), {
        apiKey: 'fgk_nope',
        json: { domain: 'x.example' },
      });
      expect(wrong.status).toBe(403);
      expect(wrong.body).toEqual(INVALID_API_KEY);
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
        ['201', '400', '401', '403', '404', '409'].sort(),
      );
      expect(Object.keys(check.post.responses).sort()).toEqual(
        ['200', '401', '403', '404', '429'].sort(),
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

  describe('enforcement on submit', () => {
    const submission = { name: 'Ada', email: 'ada@example.org' };
    let form: TestForm;

    const submit = (headers: Record<string, string> = {}) =>
      request(`${t.url}/api/submit/${form.form.id}`, {
        json: submission,
        headers,
      });
    const storedSubmissions = () =>
      t.dataSource.getRepository(Submission).countBy({ formId: form.form.id });
    const expectAccepted = async (headers: Record<string, string>) => {
      const before = await storedSubmissions();
      const res = await submit(headers);
      expect(res.status, JSON.stringify(headers)).toBe(200);
      expect(res.body).toEqual({
        success: true,
        message: 'Submission received',
      });
      expect(await storedSubmissions()).toBe(before + 1);
    };
    const expectRefused = async (
      headers: Record<string, string>,
      error: string,
    ) => {
      const before = await storedSubmissions();
      const res = await submit(headers);
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(res.body).toEqual({ error });
      expect(await storedSubmissions()).toBe(before);
    };

    beforeEach(async () => {
      form = await createForm(t, owner.account.id, {
        domainVerification: true,
      });
      const added = await addDomain(form, 'example.com');
      dns.setTxt('example.com', [added.body.record.value]);
      expect((await verify(form, 'example.com')).body.status).toBe('verified');
      // Pending domains never count.
      await addDomain(form, 'pending.example');
    });

    it.each([
      [{ origin: 'https://example.com' }],
      [{ origin: 'https://EXAMPLE.com:8443' }],
      [{ origin: 'https://www.example.com' }],
      [{ origin: 'https://a.b.example.com' }],
      [{ referer: 'https://example.com/contact?from=footer' }],
      [{ referer: 'https://shop.example.com/checkout' }],
      [{ origin: 'null', referer: 'https://example.com/form.html' }],
    ])(
      'accepts %j, from the verified domain or a subdomain',
      async (headers) => {
        await expectAccepted(headers);
      },
    );

    it.each([
      'http://localhost:3000',
      'http://app.localhost:5173',
      'http://127.0.0.1:8080',
      'http://127.0.1.1',
      'http://[::1]:4000',
      'http://192.168.1.20',
    ])('accepts development host %s', async (origin) => {
      await expectAccepted({ origin });
    });

    it('accepts a development host in Referer', async () => {
      await expectAccepted({ referer: 'http://localhost:8080/contact.html' });
    });

    it.each([
      [{ origin: 'https://evil.io' }, 'evil.io'],
      [{ origin: 'https://example.com.evil.io' }, 'example.com.evil.io'],
      [{ origin: 'https://badexample.com' }, 'badexample.com'],
      [{ origin: 'https://localhost.evil.com' }, 'localhost.evil.com'],
      [{ origin: 'https://127.0.0.1.nip.io' }, '127.0.0.1.nip.io'],
      [{ referer: 'https://evil.com/?localhost' }, 'evil.com'],
      [{ referer: 'https://evil.com/example.com' }, 'evil.com'],
      [{ referer: 'https://example.com@evil.io/' }, 'evil.io'],
      [{ origin: 'https://pending.example' }, 'pending.example'],
      [
        { origin: 'https://evil.io', referer: 'https://example.com/' },
        'evil.io',
      ],
      [{ origin: 'http://10.0.0.8' }, '10.0.0.8'],
    ])('refuses %j with a 403 naming %s', async (headers, host) => {
      await expectRefused(headers, `${REFUSAL}; ${host} is not one of them`);
    });

    it('refuses a request with neither Origin nor Referer', async () => {
      await expectRefused(
        {},
        `${REFUSAL}: the request has no Origin or Referer header`,
      );
      await expectRefused(
        { origin: 'null' },
        `${REFUSAL}: the request has no Origin or Referer header`,
      );
    });

    it('refuses an Origin that is not an http(s) URL', async () => {
      await expectRefused(
        { origin: 'example.com' },
        `${REFUSAL}: the Origin header is not an http(s) URL`,
      );
    });

    it('lets any origin submit again once the setting is turned off', async () => {
      await expectRefused(
        { origin: 'https://evil.io' },
        `${REFUSAL}; evil.io is not one of them`,
      );
      const off = await request(`${t.url}/api/v1/forms/${form.form.id}`, {
        method: 'PATCH',
        apiKey: form.apiKey,
        json: { domainVerification: false },
      });
      expect(off.status).toBe(200);
      expect(off.body.domainVerification).toBe(false);
      await expectAccepted({ origin: 'https://evil.io' });
      await expectAccepted({});
      const stored = await t.dataSource
        .getRepository(Form)
        .findOneBy({ id: form.form.id });
      expect(stored?.domainVerification).toBe(false);
    });

    it('applies the deletion of a verified domain to the next submit', async () => {
      await expectAccepted({ origin: 'https://example.com' });
      const res = await api(form, '/example.com', { method: 'DELETE' });
      expect(res.status).toBe(204);
      await expectRefused(
        { origin: 'https://example.com' },
        `${REFUSAL}; example.com is not one of them`,
      );
      await expectAccepted({ origin: 'http://localhost:3000' });
    });

    it('applies a newly verified domain to the next submit', async () => {
      await expectRefused(
        { origin: 'https://pending.example' },
        `${REFUSAL}; pending.example is not one of them`,
      );
      const list = await api(form);
      const pending = list.body.data.find(
        (d: { domain: string }) => d.domain === 'pending.example',
      );
      dns.setTxt('pending.example', [pending.record.value]);
      expect((await verify(form, 'pending.example')).body.status).toBe(
        'verified',
      );
      await expectAccepted({ origin: 'https://pending.example' });
    });

    it('refuses every real site when no domain is verified, and the settings say so', async () => {
      const bare = await createForm(t, owner.account.id, {
        domainVerification: true,
      });
      const service = t.app.get(DomainVerificationService);
      await expect(
        service.checkSubmitOrigin(bare.form, { origin: 'https://example.com' }),
      ).resolves.toBe(`${REFUSAL}; example.com is not one of them`);
      await expect(
        service.checkSubmitOrigin(bare.form, { origin: 'http://localhost' }),
      ).resolves.toBeNull();
      await expect(service.warningFor(bare.form)).resolves.toBe(
        NO_VERIFIED_WARNING,
      );
      const res = await request(`${t.url}/api/submit/${bare.form.id}`, {
        json: submission,
        headers: { origin: 'https://example.com' },
      });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        error: `${REFUSAL}; example.com is not one of them`,
      });
    });

    it('picks up a change made by another instance when the form row changes', async () => {
      const service = t.app.get(DomainVerificationService);
      const fresh = () =>
        t.dataSource.getRepository(Form).findOneByOrFail({ id: form.form.id });
      const current = await fresh();
      await expect(
        service.checkSubmitOrigin(current, { origin: 'https://other.example' }),
      ).resolves.toBe(`${REFUSAL}; other.example is not one of them`);
      // Another instance verifies a domain: this one still has its cached copy…
      await t.dataSource.getRepository(FormDomain).insert({
        id: 'other-instance-domain-0001',
        formId: form.form.id,
        domain: 'other.example',
        token: 'x'.repeat(40),
        status: 'verified',
        verifiedAt: new Date(),
        lastCheckedAt: new Date(),
        lastError: null,
        createdAt: new Date(),
      });
      await expect(
        service.checkSubmitOrigin(current, { origin: 'https://other.example' }),
      ).resolves.toBe(`${REFUSAL}; other.example is not one of them`);
      // …until the form row changes (or the cache entry expires after 30 s)…
      await t.dataSource
        .getRepository(Form)
        .update(
          { id: form.form.id },
          { updatedAt: new Date(Date.now() + 1000) },
        );
      await expect(
        service.checkSubmitOrigin(await fresh(), {
          origin: 'https://other.example',
        }),
      ).resolves.toBeNull();
    });

    it('reloads after invalidate(formId)', async () => {
      const service = t.app.get(DomainVerificationService);
      const current = await t.dataSource
        .getRepository(Form)
        .findOneByOrFail({ id: form.form.id });
      await expect(
        service.checkSubmitOrigin(current, { origin: 'https://example.com' }),
      ).resolves.toBeNull();
      await t.dataSource
        .getRepository(FormDomain)
        .delete({ formId: form.form.id, domain: 'example.com' });
      await expect(
        service.checkSubmitOrigin(current, { origin: 'https://example.com' }),
      ).resolves.toBeNull();
      service.invalidate(form.form.id);
      await expect(
        service.checkSubmitOrigin(current, { origin: 'https://example.com' }),
      ).resolves.toBe(`${REFUSAL}; example.com is not one of them`);
    });
  });
});
