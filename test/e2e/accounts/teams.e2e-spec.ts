// Accounts with members (docs/teams.md): a user in several accounts works in one at a
// time and switches with the header's switcher; what they see is that account's; a member
// removed, or whose role is lowered, loses what they lost on their very next request —
// also on a second instance sharing the database and Redis.
import { randomBytes } from 'node:crypto';
import { MembershipsService } from '../../../src/accounts/memberships.service.js';
import { createAccount, createMember } from '../../factories/accounts.js';
import { createForm } from '../../factories/forms.js';
import { createDashboardSession } from '../../factories/sessions.js';
import {
  DashboardClient,
  csrfOf,
  textOf,
} from '../../support/dashboard-client.js';
import {
  describeWhen,
  NEEDS_REDIS,
  TEST_REDIS_URL,
} from '../../support/skips.js';
import { createTestDatabase } from '../../support/test-database.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

/** A dashboard client signed in with a session of `userId` working in `accountId`. */
async function clientOf(
  t: TestApp,
  userId: string,
  accountId: string,
): Promise<DashboardClient> {
  const { token } = await createDashboardSession(t, userId, accountId);
  const client = new DashboardClient(t.url);
  client.cookies.set('dashboard_session', token);
  return client;
}

async function storedSessionAccount(t: TestApp, userId: string) {
  const rows: Array<{ accountId: string }> = await t.dataSource.query(
    'SELECT accountId FROM dashboard_session WHERE userId = ?',
    [userId],
  );
  return rows.map((row) => row.accountId);
}

describe('teams: accounts with members (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('shows a user in two accounts only the forms of the account they work in, and switches', async () => {
    const agency = await createAccount(t, 'agency@example.com');
    const client = await createAccount(t, 'client@example.com');
    const ours = await createForm(t, agency.account.id, {
      name: 'Agency leads',
    });
    const theirs = await createForm(t, client.account.id, {
      name: 'Client orders',
    });
    // The agency's owner is also an editor of the client's account.
    await createMember(t, client.account.id, 'editor', agency.user);
    const browser = await clientOf(t, agency.user.id, agency.account.id);

    const list = await browser.get('/dashboard/forms');
    expect(list.status).toBe(200);
    expect(list.html).toContain('Agency leads');
    expect(list.html).not.toContain('Client orders');
    // The switcher lists both accounts, the current one selected.
    expect(list.html).toContain('action="/dashboard/account/switch"');
    expect(list.html).toContain(
      `<option value="${agency.account.id}" selected>agency@example.com (owner)</option>`,
    );
    expect(list.html).toContain(
      `<option value="${client.account.id}">client@example.com (editor)</option>`,
    );
    expect(
      (await browser.get(`/dashboard/forms/${theirs.form.id}`)).status,
    ).toBe(404);

    const switched = await browser.post(
      '/dashboard/account/switch',
      { accountId: client.account.id },
      { from: '/dashboard/forms' },
    );
    expect(switched.status).toBe(303);
    expect(switched.location).toBe('/dashboard/forms');
    expect(await storedSessionAccount(t, agency.user.id)).toEqual([
      client.account.id,
    ]);
    const after = await browser.get('/dashboard/forms');
    expect(after.html).toContain('Client orders');
    expect(after.html).not.toContain('Agency leads');
    expect((await browser.get(`/dashboard/forms/${ours.form.id}`)).status).toBe(
      404,
    );
    // As an editor here, the form's key is not shown, and its settings cannot change.
    const detail = await browser.get(
      `/dashboard/forms/${theirs.form.id}/setup`,
    );
    expect(detail.status).toBe(200);
    expect(detail.html).toContain('data-key-hidden');
    expect(detail.html).not.toContain(theirs.apiKey);
    const refused = await browser.post(
      `/dashboard/forms/${theirs.form.id}/delete`,
      {},
      { from: `/dashboard/forms/${theirs.form.id}` },
    );
    expect(refused.status).toBe(403);
    expect(textOf(refused.html)).toContain(
      'Your role in this account (editor) does not let you delete forms.',
    );
    expect(
      (await browser.get(`/dashboard/forms/${theirs.form.id}`)).status,
    ).toBe(200);
  });

  it('refuses to switch to an account the user is not a member of (404), or without the CSRF token', async () => {
    const mine = await createAccount(t);
    const stranger = await createAccount(t);
    const browser = await clientOf(t, mine.user.id, mine.account.id);
    const refused = await browser.post(
      '/dashboard/account/switch',
      { accountId: stranger.account.id },
      { from: '/dashboard/forms' },
    );
    expect(refused.status).toBe(404);
    expect(refused.headers.get('content-type')).toContain('text/html');
    const forged = await browser.post(
      '/dashboard/account/switch',
      { accountId: mine.account.id },
      { csrf: null },
    );
    expect(forged.status).toBe(403);
    expect(await storedSessionAccount(t, mine.user.id)).toEqual([
      mine.account.id,
    ]);
  });

  it('takes a removed member out at once, and a lowered role on the next request', async () => {
    const owner = await createAccount(t);
    const form = await createForm(t, owner.account.id, { name: 'Support' });
    const member = await createMember(t, owner.account.id, 'developer');
    const browser = await clientOf(t, member.id, owner.account.id);
    const settings = `/dashboard/forms/${form.form.id}/settings`;
    expect((await browser.get(settings)).status).toBe(200);

    // Lowered to viewer: the settings page still reads, a change is refused.
    await t.app
      .get(MembershipsService)
      .put(owner.account.id, member.id, 'viewer');
    const page = await browser.get(settings);
    expect(page.status).toBe(200);
    const save = await browser.post(
      settings,
      { name: 'Renamed', _csrf: csrfOf(page.html) },
      { csrf: null },
    );
    expect(save.status).toBe(403);
    expect(textOf(save.html)).toContain(
      '(viewer) does not let you change forms',
    );
    const [row] = await t.dataSource.query(
      'SELECT name FROM form WHERE id = ?',
      [form.form.id],
    );
    expect(row.name).toBe('Support');

    // Removed: their only account is gone, so the session ends and they must log in.
    await t.app.get(MembershipsService).remove(owner.account.id, member.id);
    const gone = await browser.get(`/dashboard/forms/${form.form.id}`);
    expect(gone.status).toBe(303);
    expect(gone.location).toMatch(/^\/dashboard\/login/);
    expect(await storedSessionAccount(t, member.id)).toEqual([]);
  });
});

describeWhen(Boolean(TEST_REDIS_URL), NEEDS_REDIS)(
  'teams across instances (e2e, Redis)',
  () => {
    it('takes a removed member out at once on another instance sharing the database and Redis', async () => {
      const database = await createTestDatabase({ shared: true });
      const url = new URL(TEST_REDIS_URL!);
      url.searchParams.set(
        'keyPrefix',
        `formgate-test-${process.pid}-${randomBytes(4).toString('hex')}:`,
      );
      const env = { REDIS_URL: url.toString(), WORKER_ENABLED: 'false' };
      const a = await createTestApp({ database, env });
      const b = await createTestApp({ database, env });
      try {
        const owner = await createAccount(a);
        const form = await createForm(a, owner.account.id, { name: 'Leads' });
        const member = await createMember(a, owner.account.id, 'editor');
        const second = await createAccount(a);
        await createMember(a, second.account.id, 'viewer', member);
        const onB = await clientOf(b, member.id, owner.account.id);
        // B has read (and cached) the membership.
        expect((await onB.get(`/dashboard/forms/${form.form.id}`)).status).toBe(
          200,
        );
        // Removed on A: B hears of it through Redis before the member's next request.
        await a.app.get(MembershipsService).remove(owner.account.id, member.id);
        await expect
          .poll(
            async () =>
              (await onB.get(`/dashboard/forms/${form.form.id}`)).status,
            { timeout: 2_000, interval: 50 },
          )
          .toBe(404);
        // Still a member of the other account: the session now works there.
        expect(await storedSessionAccount(b, member.id)).toEqual([
          second.account.id,
        ]);
        const list = await onB.get('/dashboard/forms');
        expect(list.status).toBe(200);
        expect(list.html).not.toContain('Leads');
      } finally {
        await b.close();
        await a.close();
        await database.drop();
      }
    });
  },
);
