// "Mail me when I am assigned" on the account page: on by default, turned off and on with a
// CSRF-protected post, stored on the person.
import { User } from '../../../src/accounts/user.entity.js';
import { signedInClient } from '../../support/dashboard-client.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

describe('the assignment mail setting (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { TRUST_PROXY: '127.0.0.1' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is on by default and a member turns it off and on again', async () => {
    const email = `assign-${Date.now()}@example.com`;
    const client = await signedInClient(t.url, '203.0.113.61', email);
    const page = await client.get('/dashboard/account');
    expect(page.status).toBe(200);
    expect(page.html).toMatch(
      /<input type="checkbox" id="mailOnAssign" name="mailOnAssign" value="on" checked>/,
    );
    const user = () =>
      t.dataSource.getRepository(User).findOneByOrFail({ email });

    const off = await client.post(
      '/dashboard/account/assign-mail',
      {},
      {
        from: '/dashboard/account',
      },
    );
    expect(off.status).toBe(303);
    expect(off.location).toBe('/dashboard/account?done=assign-mail-off');
    expect((await user()).mailOnAssign).toBe(false);
    const after = await client.get('/dashboard/account?done=assign-mail-off');
    expect(after.html).toContain(
      'You will not be mailed when someone assigns you a submission.',
    );
    expect(after.html).not.toMatch(/id="mailOnAssign"[^>]* checked/);

    const on = await client.post(
      '/dashboard/account/assign-mail',
      { mailOnAssign: 'on' },
      { from: '/dashboard/account' },
    );
    expect(on.status).toBe(303);
    expect((await user()).mailOnAssign).toBe(true);

    // Without the CSRF token nothing changes.
    const forged = await client.post(
      '/dashboard/account/assign-mail',
      {},
      {
        csrf: null,
      },
    );
    expect(forged.status).toBe(403);
    expect((await user()).mailOnAssign).toBe(true);
  });
});
