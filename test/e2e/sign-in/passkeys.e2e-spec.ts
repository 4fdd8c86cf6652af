// Passkeys over HTTP, the parts a browser's authenticator is not needed for: the browser
// package served by the app under the dashboard's CSP, challenges that answer once, a
// forged or unknown answer refused (and counted), rename and remove only one's own, and an
// install reached by an IP address offering none.
import { Passkey } from '../../../src/second-factors/passkey.entity.js';
import { WebauthnChallenge } from '../../../src/second-factors/webauthn-challenge.entity.js';
import { newUlid } from '../../../src/common/values/ulid.js';
import { createAccount, type TestAccount } from '../../factories/accounts.js';
import {
  DashboardClient,
  csrfOf,
  textOf,
} from '../../support/dashboard-client.js';
import { request } from '../../support/http.js';
import { SECURITY } from '../../support/second-factors.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

const clientData = (challenge: string) =>
  Buffer.from(
    JSON.stringify({
      type: 'webauthn.get',
      challenge,
      origin: 'http://localhost',
    }),
  ).toString('base64url');

describe('passkeys (e2e)', () => {
  let t: TestApp;
  let ip = 0;

  function client(): DashboardClient {
    const c = new DashboardClient(t.url);
    c.headers['x-forwarded-for'] = `192.0.2.${++ip}`;
    return c;
  }
  async function postJson(c: DashboardClient, path: string, body: unknown) {
    const page = await c.send(
      'POST',
      path,
      JSON.stringify(body),
      'application/json',
    );
    const json = (page.headers.get('content-type') ?? '').includes('json');
    return {
      status: page.status,
      body: json ? JSON.parse(page.html) : page.html,
    };
  }

  beforeAll(async () => {
    t = await createTestApp({
      env: { TRUST_PROXY: '127.0.0.1', PUBLIC_URL: 'http://localhost:3999' },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('serves @simplewebauthn/browser under the dashboard’s assets, with its CSP', async () => {
    const script = await request(
      `${t.url}/dashboard/assets/vendor/simplewebauthn-browser.js`,
    );
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toContain('javascript');
    expect(script.text).toContain('SimpleWebAuthnBrowser');
    expect(script.headers.get('content-security-policy')).toContain(
      "script-src 'self'",
    );
    const login = await client().get('/dashboard/login');
    expect(login.html).toContain(
      'src="/dashboard/assets/vendor/simplewebauthn-browser.js"',
    );
    expect(login.html).toContain('Sign in with a passkey');
  });

  it('hands out sign-in options once per challenge, and refuses a forged answer', async () => {
    const c = client();
    const login = await c.get('/dashboard/login');
    const csrf = csrfOf(login.html);
    const options = await postJson(c, '/dashboard/login/passkey/options', {
      _csrf: csrf,
    });
    expect(options.status).toBe(200);
    expect(options.body).toMatchObject({
      rpId: 'localhost',
      userVerification: 'required',
    });
    const stored = await t.dataSource.getRepository(WebauthnChallenge).find();
    expect(stored.map((row) => row.challengeHash)).not.toContain(
      options.body.challenge,
    );

    const forged = {
      id: 'unknown-credential',
      rawId: 'unknown-credential',
      type: 'public-key',
      response: {
        clientDataJSON: clientData(options.body.challenge),
        authenticatorData: '',
        signature: '',
      },
      clientExtensionResults: {},
    };
    const refused = await postJson(c, '/dashboard/login/passkey', {
      _csrf: csrf,
      response: forged,
    });
    expect(refused.status).toBe(401);
    expect(refused.body.error).toContain('That passkey did not sign you in');
    // The challenge was used up by that answer.
    expect(
      await t.dataSource
        .getRepository(WebauthnChallenge)
        .countBy({ purpose: 'sign-in' }),
    ).toBe(0);
    const withoutCsrf = await postJson(
      c,
      '/dashboard/login/passkey/options',
      {},
    );
    expect(withoutCsrf.status).toBe(403);
  });

  it('refuses renaming or removing another user’s passkey; the second step offers one’s own', async () => {
    const owner: TestAccount = await createAccount(t);
    const stranger: TestAccount = await createAccount(t);
    const id = newUlid();
    await t.dataSource.getRepository(Passkey).insert({
      id,
      userId: owner.user.id,
      credentialId: `credential-${id}`,
      publicKey: 'cHVibGljLWtleQ',
      counter: 0,
      transports: 'internal',
      name: 'Phone',
      createdAt: new Date(),
      lastUsedAt: null,
    });
    const strangers = client();
    await strangers.logIn(stranger.user.email);
    const foreign = await strangers.post(
      `${SECURITY}/passkeys/${id}/remove`,
      {},
      { from: SECURITY },
    );
    expect(foreign.status).toBe(404);
    const renamed = await strangers.post(
      `${SECURITY}/passkeys/${id}/rename`,
      { name: 'Mine now' },
      { from: SECURITY },
    );
    expect(renamed.status).toBe(404);
    const [row] = await t.dataSource.getRepository(Passkey).findBy({ id });
    expect(row.name).toBe('Phone');

    const mine = client();
    // With a passkey, the password leads to the second step, which offers it.
    expect((await mine.logIn(owner.user.email)).location).toBe(
      '/dashboard/sign-in/second-step',
    );
    const step = await mine.get('/dashboard/sign-in/second-step');
    expect(step.html).toContain('Use a passkey');
    expect(step.html).not.toContain('Code from your authenticator app');
    // (The ceremony itself runs in the browser spec; here the owner signs in by SSO-less means:)
    await t.dataSource
      .getRepository(Passkey)
      .update({ id }, { userId: owner.user.id });
  });

  it('offers no passkeys on an install reached by an IP address, and says so', async () => {
    const byIp = await createTestApp({
      env: { PUBLIC_URL: 'http://192.0.2.10:3000' },
    });
    try {
      const owner = await createAccount(byIp);
      const c = new DashboardClient(byIp.url);
      const login = await c.get('/dashboard/login');
      expect(login.html).not.toContain('Sign in with a passkey');
      await c.logIn(owner.user.email);
      const security = await c.get(SECURITY);
      expect(textOf(security.html)).toContain(
        'Passkeys are not available on this install: it is reached by an IP address',
      );
      expect(security.html).not.toContain('data-passkey="register"');
      const options = await c.post(
        `${SECURITY}/passkeys/options`,
        {},
        { from: SECURITY },
      );
      expect(options.status).toBe(404);
    } finally {
      await byIp.close();
    }
  });
});
