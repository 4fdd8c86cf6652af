// Two instances sharing one database behave as one service for CAPTCHA answers: an
// ALTCHA solution or a provider token accepted by one is refused by the other, also
// when both receive it at the same moment.
import { Submission } from '../../../src/submissions/submission.entity.js';
import { createAccount } from '../../factories/accounts.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import { fetchChallenge, solve } from '../../support/altcha.js';
import {
  startCaptchaProvider,
  type CaptchaProviderServer,
} from '../../support/captcha-provider.js';
import { request } from '../../support/http.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import {
  createTestDatabase,
  type TestDatabase,
} from '../../support/test-database.js';

const person = { name: 'Ada', email: 'ada@example.com' };

describe('CAPTCHA answers across two instances (e2e)', () => {
  let database: TestDatabase;
  let provider: CaptchaProviderServer;
  let a: TestApp;
  let b: TestApp;
  let form: TestForm;

  beforeAll(async () => {
    provider = await startCaptchaProvider();
    database = await createTestDatabase({ shared: true });
    const env = {
      ...provider.env,
      ALTCHA_COST: '1',
      SUBMIT_RATE_LIMIT: '1000',
      TRUST_PROXY: '1',
    };
    a = await createTestApp({ database, env });
    b = await createTestApp({ database, env });
    const { account } = await createAccount(a);
    form = await createForm(a, account.id);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.drop();
    await provider?.close();
  });

  const setCaptcha = async (captcha: unknown) => {
    const res = await request(`${a.url}/api/v1/forms/${form.form.id}`, {
      method: 'PATCH',
      apiKey: form.apiKey,
      json: { captcha },
    });
    expect(res.status).toBe(200);
  };
  const submitTo = (app: TestApp, json: Record<string, unknown>) =>
    request(`${app.url}/api/submit/${form.form.id}`, { json });
  const count = () =>
    a.dataSource.getRepository(Submission).countBy({ formId: form.form.id });

  it('refuses on one instance an ALTCHA solution the other accepted', async () => {
    await setCaptcha({ provider: 'altcha' });
    // A challenge from instance A is good on B too: both derive the same form key.
    const altcha = await solve(await fetchChallenge(a.url, form.form.id));
    const before = await count();
    expect((await submitTo(b, { ...person, altcha })).status).toBe(200);
    const replay = await submitTo(a, { ...person, altcha });
    expect(replay.status).toBe(400);
    expect(replay.body.errors).toEqual([
      'captcha: this ALTCHA solution was already used: solve a new one',
    ]);
    expect(await count()).toBe(before + 1);
  });

  it('lets one of two simultaneous uses of an answer through, on either instance', async () => {
    await setCaptcha({ provider: 'altcha' });
    for (let round = 0; round < 3; round += 1) {
      const altcha = await solve(await fetchChallenge(b.url, form.form.id));
      const before = await count();
      const answers = await Promise.all([
        submitTo(a, { ...person, altcha }),
        submitTo(b, { ...person, altcha }),
        submitTo(a, { ...person, altcha }),
        submitTo(b, { ...person, altcha }),
      ]);
      expect(answers.map((r) => r.status).sort((x, y) => x - y)).toEqual([
        200, 400, 400, 400,
      ]);
      expect(await count()).toBe(before + 1);
    }
  });

  it('refuses on one instance a provider token the other accepted', async () => {
    // A form of its own: without Redis, B would see A's change of a form it has cached
    // only within 5 seconds.
    const { account } = await createAccount(a);
    form = await createForm(a, account.id);
    await setCaptcha({ provider: 'turnstile', secret: 's' });
    const token = `good-across-instances-${Date.now()}`;
    const before = await count();
    const first = await submitTo(a, {
      ...person,
      'cf-turnstile-response': token,
    });
    expect(first.status).toBe(200);
    const replay = await submitTo(b, {
      ...person,
      'cf-turnstile-response': token,
    });
    expect(replay.status).toBe(400);
    expect(replay.body.errors).toEqual([
      'captcha: this Turnstile token was already used: solve the CAPTCHA again',
    ]);
    expect(await count()).toBe(before + 1);
  });
});
