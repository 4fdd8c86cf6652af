// DNS lookups on demand are limited: at most 10 verifications a minute per form and 100 per
// account, so a key cannot make the server query DNS without end. Refused verifications
// send no query and leave the stored domain as it was.
import { AccountsService } from '../../../src/accounts/accounts.service.js';
import { FormDomain } from '../../../src/domain-verification/form-domain.entity.js';
import { createAccount, type TestAccount } from '../../factories/accounts.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import { DashboardClient, textOf } from '../../support/dashboard-client.js';
import {
  startDnsServer,
  type TestDnsServer,
} from '../../support/dns-server.js';
import { request } from '../../support/http.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

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

  async function withDomain(owner: TestAccount, domain: string) {
    const form = await createForm(t, owner.account.id);
    const added = await request(
      `${t.url}/api/v1/forms/${form.form.id}/domains`,
      {
        apiKey: form.apiKey,
        json: { domain },
      },
    );
    expect(added.status).toBe(201);
    return form;
  }
  const verify = (form: TestForm, domain: string) =>
    request(`${t.url}/api/v1/forms/${form.form.id}/domains/${domain}/verify`, {
      method: 'POST',
      apiKey: form.apiKey,
    });
  const stored = (form: TestForm, domain: string) =>
    t.dataSource
      .getRepository(FormDomain)
      .findOneByOrFail({ formId: form.form.id, domain });

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
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toMatch(/^application\/json/);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.body).toEqual({
      error: `Too many verifications of this form's domains: at most 10 a minute. Retry in ${retryAfter} seconds.`,
    });
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
    expect(page.status).toBe(429);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(Number(page.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(textOf(page.html)).toMatch(
      /Too many verifications of this form(&#39;|')s domains: at most 10 a minute/,
    );
  });
});
