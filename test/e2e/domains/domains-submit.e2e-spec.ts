// Domain verification enforced on POST /api/submit/:formId: verified domains, their
// subdomains and development hosts pass, every other origin is refused.
import { DomainVerificationService } from '../../../src/domain-verification/domain-verification.service.js';
import { FormDomain } from '../../../src/domain-verification/form-domain.entity.js';
import { Form } from '../../../src/forms/form.entity.js';
import { Submission } from '../../../src/submissions/submission.entity.js';
import { createAccount, type TestAccount } from '../../factories/accounts.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import {
  startDnsServer,
  type TestDnsServer,
} from '../../support/dns-server.js';
import { request } from '../../support/http.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import { domainsApi } from '../../support/domains-api.js';

const NO_VERIFIED_WARNING =
  'Domain verification is on but no domain is verified yet: only development hosts (localhost, 127.0.0.1, 192.168.x.x) can submit.';
const REFUSAL =
  'Submissions to this form are only accepted from its verified domains';

describe('domain verification: enforcement on submit (e2e)', () => {
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

  const { api, addDomain, verify } = domainsApi(() => t);

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
      await expect(service.warningFor(bare.form)).resolves.toBe(
        NO_VERIFIED_WARNING,
      );
      const submitBare = (origin: string) =>
        request(`${t.url}/api/submit/${bare.form.id}`, {
          json: submission,
          headers: { origin },
        });
      const res = await submitBare('https://example.com');
      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        error: `${REFUSAL}; example.com is not one of them`,
      });
      // Development hosts still may.
      expect((await submitBare('http://localhost')).status).toBe(200);
    });

    it('applies a domain verified or removed elsewhere (another instance, the CLI) once the change is announced', async () => {
      const service = t.app.get(DomainVerificationService);
      await expectRefused(
        { origin: 'https://other.example' },
        `${REFUSAL}; other.example is not one of them`,
      );
      // Written straight to the database, as another instance would…
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
      // …and announced on the form-changes channel (Redis across instances).
      service.invalidate(form.form.id);
      await expectAccepted({ origin: 'https://other.example' });
      await t.dataSource
        .getRepository(FormDomain)
        .delete({ formId: form.form.id, domain: 'other.example' });
      service.invalidate(form.form.id);
      await expectRefused(
        { origin: 'https://other.example' },
        `${REFUSAL}; other.example is not one of them`,
      );
    });
  });
});
