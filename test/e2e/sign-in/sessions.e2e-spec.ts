// The sessions page through the real dashboard: each session's browser, address, last
// activity and how it signed in; revoking one, or every other; a password change ends the
// others.
import { DashboardSession } from '../../../src/dashboard/session/dashboard-session.entity.js';
import { DashboardSessionsService } from '../../../src/dashboard/session/dashboard-sessions.service.js';
import {
  createAccount,
  TEST_PASSWORD,
  type TestAccount,
} from '../../factories/accounts.js';
import { DashboardClient, textOf } from '../../support/dashboard-client.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

const SESSIONS = '/dashboard/account/sessions';
const FIREFOX =
  'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const SAFARI =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15';

describe('the sessions page (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { TRUST_PROXY: '127.0.0.1' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  async function signedIn(
    owner: TestAccount,
    ip: string,
    agent: string,
  ): Promise<DashboardClient> {
    const c = new DashboardClient(t.url);
    c.headers['x-forwarded-for'] = ip;
    c.headers['user-agent'] = agent;
    expect((await c.logIn(owner.user.email)).status).toBe(303);
    return c;
  }
  const stillIn = async (c: DashboardClient) =>
    (await c.get('/dashboard/forms')).status === 200;
  const rowsOf = (html: string) =>
    [
      ...html.matchAll(
        /<tr data-session="([0-9a-f]{16})" data-method="([a-z+]+)">([\s\S]*?)<\/tr>/g,
      ),
    ].map(([, id, method, row]) => ({ id, method, text: textOf(row) }));

  it('lists each session with its browser, address, last activity and method', async () => {
    const owner = await createAccount(t);
    const laptop = await signedIn(owner, '198.51.100.10', FIREFOX);
    await signedIn(owner, '198.51.100.11', SAFARI);
    const page = await laptop.get(SESSIONS);
    expect(page.status).toBe(200);
    const rows = rowsOf(page.html);
    expect(rows).toHaveLength(2);
    const [mine] = rows.filter((row) => row.text.includes('This session'));
    expect(mine.text).toContain('Firefox on Linux');
    expect(mine.text).toContain('198.51.100.10');
    expect(mine.text).toContain('Password');
    expect(mine.method).toBe('password');
    const other = rows.find((row) => row !== mine)!;
    expect(other.text).toContain('Safari on macOS');
    expect(other.text).toContain('198.51.100.11');
    expect(page.html).toMatch(/<time datetime="\d{4}-\d\d-\d\dT/);
    // Stored as shown.
    const stored = await t.dataSource
      .getRepository(DashboardSession)
      .find({ where: { userId: owner.user.id } });
    expect(stored.map((s) => s.userAgent)).toEqual(
      expect.arrayContaining([FIREFOX, SAFARI]),
    );
    expect(stored).toHaveLength(2);
    expect(stored.every((s) => s.lastSeenAt instanceof Date)).toBe(true);
  });

  it('revokes one session, and answers 404 for one that is not the user’s', async () => {
    const owner = await createAccount(t);
    const stranger = await createAccount(t);
    const laptop = await signedIn(owner, '198.51.100.20', FIREFOX);
    const phone = await signedIn(owner, '198.51.100.21', SAFARI);
    const strangers = await signedIn(stranger, '198.51.100.22', FIREFOX);
    const rows = rowsOf((await laptop.get(SESSIONS)).html);
    const other = rows.find((row) => !row.text.includes('This session'))!;

    const foreign = await strangers.post(
      `${SESSIONS}/${other.id}/revoke`,
      {},
      { from: SESSIONS },
    );
    expect(foreign.status).toBe(404);
    expect(await stillIn(phone)).toBe(true);
    const junk = await laptop.post(
      `${SESSIONS}/not-an-id/revoke`,
      {},
      { from: SESSIONS },
    );
    expect(junk.status).toBe(404);

    const revoked = await laptop.post(
      `${SESSIONS}/${other.id}/revoke`,
      {},
      { from: SESSIONS },
    );
    expect(revoked.status).toBe(303);
    expect(revoked.location).toBe(`${SESSIONS}?done=revoked`);
    expect(await stillIn(phone)).toBe(false);
    expect(await stillIn(laptop)).toBe(true);
    expect(rowsOf((await laptop.get(SESSIONS)).html)).toHaveLength(1);
  });

  it('needs the form’s CSRF token to revoke', async () => {
    const owner = await createAccount(t);
    const laptop = await signedIn(owner, '198.51.100.25', FIREFOX);
    const [row] = rowsOf((await laptop.get(SESSIONS)).html);
    const forged = await laptop.post(
      `${SESSIONS}/${row.id}/revoke`,
      {},
      { csrf: 'forged' },
    );
    expect(forged.status).toBe(403);
    expect(await stillIn(laptop)).toBe(true);
  });

  it('logs out every other session at once', async () => {
    const owner = await createAccount(t);
    const laptop = await signedIn(owner, '198.51.100.30', FIREFOX);
    const phone = await signedIn(owner, '198.51.100.31', SAFARI);
    const tablet = await signedIn(owner, '198.51.100.32', SAFARI);
    const done = await laptop.post(
      `${SESSIONS}/others/revoke`,
      {},
      { from: SESSIONS },
    );
    expect(done.status).toBe(303);
    expect(await stillIn(phone)).toBe(false);
    expect(await stillIn(tablet)).toBe(false);
    expect(await stillIn(laptop)).toBe(true);
  });

  it('ends the other sessions when the password changes', async () => {
    const owner = await createAccount(t);
    const laptop = await signedIn(owner, '198.51.100.40', FIREFOX);
    const phone = await signedIn(owner, '198.51.100.41', SAFARI);
    const changed = await laptop.post(
      '/dashboard/account/password',
      {
        currentPassword: TEST_PASSWORD,
        newPassword: 'a-new-password-77',
        confirmPassword: 'a-new-password-77',
      },
      { from: '/dashboard/account' },
    );
    expect(changed.status).toBe(303);
    expect(await stillIn(phone)).toBe(false);
    expect(await stillIn(laptop)).toBe(true);
    const rows = rowsOf((await laptop.get(SESSIONS)).html);
    expect(rows).toHaveLength(1);
    expect(rows[0].text).toContain('Firefox on Linux');
  });

  it('records the method it is given (an SSO session shows as one)', async () => {
    const owner = await createAccount(t);
    const laptop = await signedIn(owner, '198.51.100.50', FIREFOX);
    await t.app
      .get(DashboardSessionsService)
      .start(owner.user.id, owner.account.id, 'sso', {
        userAgent: SAFARI,
        ip: '198.51.100.51',
      });
    const rows = rowsOf((await laptop.get(SESSIONS)).html);
    const sso = rows.find((row) => row.method === 'sso');
    expect(sso?.text).toContain('Single sign-on');
    expect(sso?.text).toContain('198.51.100.51');
  });
});
