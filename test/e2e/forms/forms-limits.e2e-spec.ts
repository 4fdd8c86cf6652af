// Caps on what one key can create: forms per account (MAX_FORMS_PER_ACCOUNT, 1,000 by
// default) — a form key can create forms, so a leaked one must not create without end. What
// rotating a form's key revokes (its own key only) is in forms-keys.e2e-spec.ts.
import { ulid } from 'ulid';
import { generateApiKey, generateFormId } from '../../../src/auth/api-keys.js';
import { Form } from '../../../src/forms/form.entity.js';
import { createAccount } from '../../factories/accounts.js';
import { createForm } from '../../factories/forms.js';
import { DashboardClient, textOf } from '../../support/dashboard-client.js';
import { expectPage, expectProblem } from '../../support/answers.js';
import { request } from '../../support/http.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

const tooMany = (max: number) => ({
  error: `This account already has ${max} forms, the most it can have: delete one before creating another`,
});

describe('forms per account (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { MAX_FORMS_PER_ACCOUNT: '3' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  const forms = () => `${t.url}/api/v1/forms`;
  const countForms = (accountId: string) =>
    t.dataSource.getRepository(Form).countBy({ accountId });

  it('lets a form key create forms up to the cap, then answers 409', async () => {
    const { account } = await createAccount(t);
    const first = await createForm(t, account.id);
    const created: string[] = [];
    for (let i = 0; i < 2; i++) {
      const res = await request(forms(), {
        apiKey: first.apiKey,
        json: { name: `Sibling ${i}` },
      });
      expect(res.status).toBe(201);
      expect(res.body.apiKey).toMatch(/^fgk_/);
      created.push(res.body.apiKey as string);
    }
    const refused = await request(forms(), {
      apiKey: first.apiKey,
      json: { name: 'One too many' },
    });
    expectProblem(refused, 409, tooMany(3));
    expect(await countForms(account.id)).toBe(3);

    // An account key meets the same cap.
    const other = await createAccount(t);
    for (let i = 0; i < 3; i++) await createForm(t, other.account.id);
    const byAccountKey = await request(forms(), {
      apiKey: other.apiKey,
      json: { name: 'Fourth' },
    });
    expectProblem(byAccountKey, 409, tooMany(3));

    // Deleting one makes room again.
    const [sibling] = created;
    const listed = await request(forms(), { apiKey: sibling });
    expect(
      (
        await request(`${forms()}/${listed.body.data[0].id}`, {
          method: 'DELETE',
          apiKey: sibling,
        })
      ).status,
    ).toBe(204);
    expect(
      (
        await request(forms(), {
          apiKey: first.apiKey,
          json: { name: 'Again' },
        })
      ).status,
    ).toBe(201);
    expect(await countForms(account.id)).toBe(3);
  });

  it('says so on the dashboard, keeping what was typed', async () => {
    const client = new DashboardClient(t.url);
    client.headers['x-forwarded-for'] = '203.0.113.60';
    const email = `cap-${Date.now()}@example.com`;
    expect((await client.signUp(email)).status).toBe(303);
    for (let i = 1; i <= 3; i++) {
      const res = await client.post(
        '/dashboard/forms/new',
        { name: `Form ${i}`, 'f0.id': 'email', 'f0.type': 'email' },
        { from: '/dashboard/forms/new' },
      );
      expect(res.status).toBe(303);
    }
    const page = await client.post(
      '/dashboard/forms/new',
      { name: 'Form 4', 'f0.id': 'email', 'f0.type': 'email' },
      { from: '/dashboard/forms/new' },
    );
    expectPage(page, 409, 'New form');
    expect(textOf(page.html)).toContain(tooMany(3).error);
    expect(page.html).toContain('value="Form 4"');
    const rows = await t.dataSource
      .getRepository(Form)
      .find({ where: {}, select: { name: true } });
    expect(rows.map((row) => row.name)).not.toContain('Form 4');
  });
});

describe('forms per account, default cap (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses the 1,001st form of an account with 409', async () => {
    const { account, apiKey } = await createAccount(t);
    const repo = t.dataSource.getRepository(Form);
    const rows = Array.from({ length: 1000 }, (_, i) => {
      const key = generateApiKey('form');
      return repo.create({
        id: generateFormId(),
        accountId: account.id,
        name: `Bulk ${i} ${ulid()}`,
        fields: [],
        domainVerification: false,
        apiKeyHash: key.hash,
        apiKeyEncrypted: 'not-needed-here',
        apiKeyPrefix: key.prefix,
      });
    });
    for (let i = 0; i < rows.length; i += 100) {
      await repo.insert(rows.slice(i, i + 100));
    }
    const res = await request(`${t.url}/api/v1/forms`, {
      apiKey,
      json: { name: 'One too many' },
    });
    expectProblem(res, 409, tooMany(1000));
    expect(await repo.countBy({ accountId: account.id })).toBe(1000);
  });
});
