// The role matrix of docs/teams.md, tried for real: an account key of each role on the API,
// and a member of each role in the dashboard, on a route of every permission row. Where
// the table gives the role the permission the route answers 2xx (or its redirect), else
// 403 — `{error: "This key cannot …"}` on the API, the 403 page in the dashboard — and
// nothing changes. Another account's form stays 404 whatever the role.
import {
  KEY_ROLES,
  ROLES,
  roleHas,
  type Permission,
  type Role,
} from '../../../src/auth/permissions.js';
import {
  createAccount,
  createAccountApiKey,
  createMember,
  type TestAccount,
} from '../../factories/accounts.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import { createDashboardSession } from '../../factories/sessions.js';
import { insertSubmissions } from '../../factories/submissions.js';
import { DashboardClient, textOf } from '../../support/dashboard-client.js';
import { request, type HttpResponse } from '../../support/http.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

interface Attempt {
  permission: Permission;
  /** What is tried, given a fresh form of the account and one of its submissions. */
  run: (form: TestForm, submissionId: string) => Promise<{ status: number }>;
}

describe('the role matrix (e2e)', () => {
  let t: TestApp;
  let owner: TestAccount;
  let stranger: TestForm;

  beforeAll(async () => {
    t = await createTestApp({
      env: { TRUST_PROXY: '127.0.0.1', WEBHOOK_ALLOW_PRIVATE: 'true' },
    });
    owner = await createAccount(t);
    stranger = await createForm(t, (await createAccount(t)).account.id);
  });
  afterAll(async () => {
    await t?.close();
  });

  async function fixture(): Promise<{ form: TestForm; submissionId: string }> {
    const form = await createForm(t, owner.account.id);
    const [submission] = await insertSubmissions(t, form.form.id, [
      { createdAt: new Date(Date.now() - 1000) },
    ]);
    return { form, submissionId: submission.id };
  }

  describe('account keys on the API', () => {
    const api = (key: string, method: string, path: string, json?: unknown) =>
      request(`${t.url}/api/v1${path}`, { method, apiKey: key, json });
    const attempts = (key: string): Attempt[] => [
      {
        permission: 'forms.read',
        run: (f) => api(key, 'GET', `/forms/${f.form.id}`),
      },
      {
        permission: 'submissions.read',
        run: (f, s) => api(key, 'GET', `/forms/${f.form.id}/submissions/${s}`),
      },
      {
        permission: 'submissions.export',
        run: (f) =>
          api(key, 'GET', `/forms/${f.form.id}/submissions/export?format=csv`),
      },
      {
        permission: 'submissions.work',
        run: (f, s) =>
          api(key, 'PATCH', `/forms/${f.form.id}/submissions/${s}`, {
            spam: true,
          }),
      },
      {
        permission: 'submissions.delete',
        run: (f, s) =>
          api(key, 'DELETE', `/forms/${f.form.id}/submissions/${s}`),
      },
      {
        permission: 'forms.write',
        run: (f) =>
          api(key, 'PATCH', `/forms/${f.form.id}`, { name: 'Changed' }),
      },
      {
        permission: 'forms.delete',
        run: (f) => api(key, 'DELETE', `/forms/${f.form.id}`),
      },
      {
        permission: 'keys.manage',
        run: () =>
          api(key, 'POST', '/account/keys', { name: 'Minted', role: 'viewer' }),
      },
      {
        permission: 'domains.manage',
        run: (f) =>
          api(key, 'POST', `/forms/${f.form.id}/domains`, {
            domain: 'www.example.com',
          }),
      },
      {
        permission: 'notifications.manage',
        run: (f) =>
          api(key, 'POST', `/forms/${f.form.id}/webhooks`, {
            url: 'http://127.0.0.1:9/formgate',
          }),
      },
      {
        permission: 'erasure',
        run: () =>
          api(key, 'POST', '/erasure', { email: 'nobody@example.com' }),
      },
    ];

    for (const role of KEY_ROLES) {
      it(`gives a ${role} key what the table gives a ${role}`, async () => {
        const key = await createAccountApiKey(
          t,
          owner.account.id,
          `${role} key`,
          role,
        );
        for (const attempt of attempts(key)) {
          const { form, submissionId } = await fixture();
          const res = (await attempt.run(form, submissionId)) as HttpResponse;
          const what = `${role} ${attempt.permission}: ${res.text}`;
          if (roleHas(role, attempt.permission)) {
            expect(res.status, what).toBeGreaterThanOrEqual(200);
            expect(res.status, what).toBeLessThan(300);
          } else {
            expect(res.status, what).toBe(403);
            expect(res.body, what).toEqual({ error: expect.any(String) });
            expect(res.body.error).toMatch(
              role === 'viewer' ? /read-only/ : /^This key cannot /,
            );
            // Nothing changed: the form is still there under its name.
            const [row] = await t.dataSource.query(
              'SELECT name FROM form WHERE id = ?',
              [form.form.id],
            );
            expect(row, what).toEqual({ name: 'Contact' });
          }
        }
        const other = await api(key, 'GET', `/forms/${stranger.form.id}`);
        expect(other.status).toBe(404);
        expect(other.body).toEqual({ error: 'Form not found' });
      });
    }

    it('creates a key with at most its creator’s role, never an owner', async () => {
      const developer = await createAccountApiKey(
        t,
        owner.account.id,
        'developer key',
        'developer',
      );
      const above = await api(developer, 'POST', '/account/keys', {
        name: 'Escalated',
        role: 'admin',
      });
      expect(above.status).toBe(403);
      expect(above.body).toEqual({
        error: 'This key cannot create a key above its own role (developer)',
      });
      const same = await api(developer, 'POST', '/account/keys', {
        name: 'Peer',
      });
      expect(same.status).toBe(201);
      expect(same.body).toMatchObject({ role: 'developer', readOnly: false });
      const viewer = await api(developer, 'POST', '/account/keys', {
        name: 'Reports',
        readOnly: true,
      });
      expect(viewer.status).toBe(201);
      expect(viewer.body).toMatchObject({ role: 'viewer', readOnly: true });
      for (const body of [
        { name: 'Owner', role: 'owner' },
        { name: 'Both', role: 'admin', readOnly: true },
      ]) {
        const refused = await api(owner.apiKey, 'POST', '/account/keys', body);
        expect(refused.status).toBe(400);
        expect(refused.body.errors).toHaveLength(1);
      }
      const names: Array<{ name: string }> = await t.dataSource.query(
        'SELECT name FROM account_api_key WHERE accountId = ? AND name IN (?, ?, ?)',
        [owner.account.id, 'Escalated', 'Owner', 'Both'],
      );
      expect(names).toEqual([]);
    });
  });

  describe('members in the dashboard', () => {
    let ip = 0;
    async function memberClient(role: Role): Promise<DashboardClient> {
      const member =
        role === 'owner'
          ? owner.user
          : await createMember(t, owner.account.id, role);
      const { token } = await createDashboardSession(
        t,
        member.id,
        owner.account.id,
      );
      const client = new DashboardClient(t.url);
      client.cookies.set('dashboard_session', token);
      // Each member from an address of its own, clear of per-client limits.
      client.headers['x-forwarded-for'] = `198.51.100.${++ip}`;
      return client;
    }
    const pages = (client: DashboardClient): Attempt[] => {
      const form = (f: TestForm) => `/dashboard/forms/${f.form.id}`;
      return [
        { permission: 'forms.read', run: (f) => client.get(form(f)) },
        {
          permission: 'submissions.read',
          run: (f, s) => client.get(`${form(f)}/submissions/${s}`),
        },
        {
          permission: 'submissions.export',
          run: (f) => client.get(`${form(f)}/submissions.csv`),
        },
        {
          permission: 'submissions.work',
          run: (f, s) =>
            client.post(
              `${form(f)}/submissions/${s}/spam`,
              {},
              {
                from: form(f),
              },
            ),
        },
        {
          permission: 'submissions.delete',
          run: (f, s) =>
            client.post(
              `${form(f)}/submissions/${s}/delete`,
              {},
              {
                from: form(f),
              },
            ),
        },
        {
          permission: 'forms.write',
          run: () => client.get('/dashboard/forms/new'),
        },
        {
          permission: 'forms.delete',
          run: (f) => client.get(`${form(f)}/delete`),
        },
        {
          permission: 'keys.manage',
          run: (f) => client.get(`${form(f)}/regenerate-key`),
        },
        {
          permission: 'domains.manage',
          run: (f) =>
            client.post(
              `${form(f)}/domains`,
              { domain: 'www.example.com' },
              {
                from: form(f),
              },
            ),
        },
        {
          permission: 'erasure',
          run: () =>
            client.post(
              '/dashboard/account/erasure/preview',
              { erasureEmail: 'nobody@example.com' },
              { from: '/dashboard/forms' },
            ),
        },
      ];
    };

    for (const role of ROLES) {
      it(`gives a ${role} what the table gives a ${role}`, async () => {
        const client = await memberClient(role);
        for (const attempt of pages(client)) {
          const { form, submissionId } = await fixture();
          const page = (await attempt.run(form, submissionId)) as Awaited<
            ReturnType<DashboardClient['get']>
          >;
          const what = `${role} ${attempt.permission}`;
          if (roleHas(role, attempt.permission)) {
            expect(page.status, what).toBeGreaterThanOrEqual(200);
            expect(page.status, what).toBeLessThan(400);
          } else {
            expect(page.status, what).toBe(403);
            expect(page.headers.get('content-type'), what).toContain(
              'text/html',
            );
            expect(textOf(page.html), what).toContain(
              `Your role in this account (${role}) does not let you`,
            );
          }
        }
        const other = await client.get(`/dashboard/forms/${stranger.form.id}`);
        expect(other.status).toBe(404);
        expect(other.headers.get('content-type')).toContain('text/html');
      });
    }
  });
});
