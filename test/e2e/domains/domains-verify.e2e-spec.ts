// POST /api/v1/forms/:id/domains/:domain/verify against a real DNS server on loopback, and
// its limits: DNS lookups on demand are at most 10 verifications a minute per form and 100
// per account, so a key cannot make the server query DNS without end; a refused
// verification sends no query and leaves the stored domain as it was.
import { AccountsService } from '../../../src/accounts/accounts.service.js';
import { createAccount, type TestAccount } from '../../factories/accounts.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import { expectPage, expectProblem } from '../../support/answers.js';
import { DashboardClient, textOf } from '../../support/dashboard-client.js';
import {
  startDnsServer,
  type TestDnsServer,
} from '../../support/dns-server.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import { DOMAIN_NOT_FOUND } from '../../support/errors.js';
import { domainsApi } from '../../support/domains-api.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('domain verification: verifying (e2e)', () => {
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

  const { addDomain, verify, storedDomain } = domainsApi(() => t);

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
        expectProblem(res, 404, DOMAIN_NOT_FOUND);
      },
    );
  });
});

describe('domain verification limits (e2e)', () => {
  let dns: TestDnsServer;
  let t: TestApp;

  beforeAll(async () => {
    dns = await startDnsServer();
    t = await createTestApp({
      env: { DNS_SERVERS: dns.address, TRUST_PROXY: '127.0.0.1' },
    });
  });
  afterAll(async () => {
    await t?.close();
    await dns?.close();
  });
  afterEach(() => dns.reset());

  const { addDomain, verify, storedDomain } = domainsApi(() => t);

  async function withDomain(owner: TestAccount, domain: string) {
    const form = await createForm(t, owner.account.id);
    expect((await addDomain(form, domain)).status).toBe(201);
    return form;
  }
  const stored = async (form: TestForm, domain: string) =>
    (await storedDomain(form.form.id, domain))!;

  it('answers 429 with Retry-After to the 11th verification of a form within a minute', async () => {
    const owner = await createAccount(t);
    const form = await withDomain(owner, 'limited.example');
    for (let i = 0; i < 10; i++) {
      const res = await verify(form, 'limited.example');
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('pending');
    }
    const queries = dns.queries.length;
    const checkedAt = (await stored(form, 'limited.example')).lastCheckedAt;

    const refused = await verify(form, 'limited.example');
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expectProblem(
      refused,
      429,
      `Too many verifications of this form's domains: at most 10 a minute. Retry in ${retryAfter} seconds.`,
    );
    expect(dns.queries.length).toBe(queries);
    expect((await stored(form, 'limited.example')).lastCheckedAt).toEqual(
      checkedAt,
    );

    // Another form of the same account has a budget of its own.
    const other = await withDomain(owner, 'other.example');
    expect((await verify(other, 'other.example')).status).toBe(200);
  });

  it('limits an account to 100 verifications a minute over all its forms', async () => {
    const owner = await createAccount(t);
    const forms: TestForm[] = [];
    for (let i = 0; i <= 10; i++) {
      forms.push(await withDomain(owner, `spread${i}.example`));
    }
    // Ten forms, ten verifications each: every form within its own budget.
    for (let i = 0; i < 100; i++) {
      const n = i % 10;
      expect((await verify(forms[n], `spread${n}.example`)).status).toBe(200);
    }
    const refused = await verify(forms[10], 'spread10.example');
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatch(
      /^Too many domain verifications in this account: at most 100 a minute over all its forms\. Retry in \d+ seconds\.$/,
    );
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  }, 60_000);

  it('shows the limit on the dashboard as a 429 page', async () => {
    const client = new DashboardClient(t.url);
    client.headers['x-forwarded-for'] = '203.0.113.77';
    const email = `dns-${Date.now()}@example.com`;
    expect((await client.signUp(email)).status).toBe(303);
    const account = (await t.app.get(AccountsService).findByEmail(email))!;
    const form = await withDomain(
      {
        account,
        user: (await t.app.get(AccountsService).findUserByEmail(email))!,
        apiKey: '',
      },
      'dashboard.example',
    );
    const settings = `/dashboard/forms/${form.form.id}/settings`;
    for (let i = 0; i < 10; i++) {
      const res = await client.post(
        `/dashboard/forms/${form.form.id}/domains/dashboard.example/verify`,
        {},
        { from: settings },
      );
      expect(res.status).toBe(303);
    }
    const page = await client.post(
      `/dashboard/forms/${form.form.id}/domains/dashboard.example/verify`,
      {},
      { from: settings },
    );
    expectPage(page, 429, 'Too many attempts');
    expect(Number(page.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(textOf(page.html)).toMatch(
      /Too many verifications of this form(&#39;|')s domains: at most 10 a minute/,
    );
  });
});
