// Turnstile, hCaptcha and reCAPTCHA end to end against a loopback server that plays each
// provider's verify endpoint: the form's secret, the token and the client IP are sent;
// success stores the post, failure and a low score refuse it (400), a token is accepted
// once, and a provider that times out or fails keeps the post as unnotified spam.
import { SecretBoxService } from '../../../src/auth/secret-box.service.js';
import { Delivery } from '../../../src/notifications/deliveries/delivery.entity.js';
import { Submission } from '../../../src/submissions/submission.entity.js';
import { createAccount } from '../../factories/accounts.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import {
  startCaptchaProvider,
  type CaptchaProviderServer,
} from '../../support/captcha-provider.js';
import { request } from '../../support/http.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

const RECEIVED = { success: true, message: 'Submission received' };
const person = { name: 'Ada', email: 'ada@example.com' };

const PROVIDERS = [
  { provider: 'turnstile', name: 'Turnstile', field: 'cf-turnstile-response' },
  { provider: 'hcaptcha', name: 'hCaptcha', field: 'h-captcha-response' },
  { provider: 'recaptcha', name: 'reCAPTCHA', field: 'g-recaptcha-response' },
] as const;

describe('third-party CAPTCHA providers (e2e)', () => {
  let t: TestApp;
  let provider: CaptchaProviderServer;
  let form: TestForm;
  let token = 0;

  beforeAll(async () => {
    provider = await startCaptchaProvider();
    t = await createTestApp({
      env: {
        ...provider.env,
        SUBMIT_RATE_LIMIT: '1000',
        TRUST_PROXY: '1',
        WEBHOOK_ALLOW_PRIVATE: 'true',
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await provider?.close();
  });

  const formUrl = () => `${t.url}/api/v1/forms/${form.form.id}`;
  // Switched on without the grace a change gives pages already deployed (captcha-grace
  // .e2e-spec.ts): a post without a token is refused from the first.
  const setCaptcha = (captcha: unknown) =>
    request(formUrl(), {
      method: 'PATCH',
      apiKey: form.apiKey,
      json: {
        captcha:
          captcha !== null && typeof captcha === 'object'
            ? { ...captcha, graceUntil: null }
            : captcha,
      },
    });
  const stored = () =>
    t.dataSource
      .getRepository(Submission)
      .find({ where: { formId: form.form.id }, order: { id: 'ASC' } });
  const unique = (kind: string) => `${kind}-${++token}-${'x'.repeat(40)}`;

  describe.each(PROVIDERS)(
    '$name',
    ({ provider: name, name: label, field }) => {
      beforeEach(async () => {
        const { account } = await createAccount(t);
        form = await createForm(t, account.id);
        const res = await setCaptcha({
          provider: name,
          siteKey: `site-${name}`,
          secret: `secret-${name}`,
        });
        expect(res.status).toBe(200);
      });

      const submit = (value: unknown, ip = '203.0.113.5') =>
        request(`${t.url}/api/submit/${form.form.id}`, {
          json: { ...person, [field]: value },
          headers: { 'x-forwarded-for': ip },
        });

      it('stores the post when the provider says success, with the secret, token and IP sent', async () => {
        const good = unique('good');
        const res = await submit(good, '203.0.113.44');
        expect(res.status).toBe(200);
        expect(res.body).toEqual(RECEIVED);
        const call = provider.received.at(-1)!;
        expect(call.provider).toBe(name);
        expect(call.contentType).toBe('application/x-www-form-urlencoded');
        expect(call.fields).toEqual({
          secret: `secret-${name}`,
          response: good,
          remoteip: '203.0.113.44',
          ...(name === 'hcaptcha' ? { sitekey: 'site-hcaptcha' } : {}),
        });
        const rows = await stored();
        expect(rows.map((r) => [r.data, r.spam])).toEqual([[person, false]]);
      });

      it('accepts a token once, even when the provider would accept it again', async () => {
        const good = unique('good');
        expect((await submit(good)).status).toBe(200);
        const replay = await submit(good);
        expect(replay.status).toBe(400);
        expect(replay.body).toEqual({
          error: 'Validation failed',
          errors: [
            `captcha: this ${label} token was already used: solve the CAPTCHA again`,
          ],
        });
        expect(await stored()).toHaveLength(1);
      });

      it('refuses a token the provider refuses, and one it calls expired', async () => {
        const bad = await submit(unique('bad'));
        expect(bad.status).toBe(400);
        expect(bad.body.errors).toEqual([
          `captcha: the ${label} token is not valid: solve the CAPTCHA again`,
        ]);
        const stale = await submit(unique('stale'));
        expect(stale.body.errors).toEqual([
          `captcha: the ${label} token has expired or was already used: solve the CAPTCHA again`,
        ]);
        expect(await stored()).toEqual([]);
      });

      it('refuses a post without a token, or with a malformed one, without asking the provider', async () => {
        const calls = provider.received.length;
        const missing = await submit(undefined);
        expect(missing.status).toBe(400);
        expect(missing.body.errors).toEqual([
          `captcha: no ${label} token was sent (the "${field}" field is missing)`,
        ]);
        for (const value of [['a', 'b'], 42, 'g'.repeat(5000)]) {
          const res = await submit(value);
          expect(res.status).toBe(400);
          expect(res.body.errors).toEqual([
            `captcha: the ${label} token is malformed`,
          ]);
        }
        expect(provider.received.length).toBe(calls);
        expect(await stored()).toEqual([]);
      });

      it('keeps the post as unnotified spam when the provider fails (500)', async () => {
        const hook = await request(`${formUrl()}/webhooks`, {
          apiKey: form.apiKey,
          json: { url: 'http://127.0.0.1:9/hook' },
        });
        expect(hook.status).toBe(201);
        const res = await submit(unique('down'));
        expect(res.status).toBe(200);
        expect(res.body).toEqual(RECEIVED);
        const [row] = await stored();
        expect([row.spam, row.spamReasons]).toEqual([
          true,
          ['captcha-unavailable'],
        ]);
        expect(
          await t.dataSource
            .getRepository(Delivery)
            .countBy({ submissionId: row.id }),
        ).toBe(0);
      });
    },
  );

  describe('reCAPTCHA scores and timeouts', () => {
    beforeEach(async () => {
      const { account } = await createAccount(t);
      form = await createForm(t, account.id);
    });
    const submit = (value: string) =>
      request(`${t.url}/api/submit/${form.form.id}`, {
        json: { ...person, 'g-recaptcha-response': value },
      });

    it('refuses a score below minScore (0.5 by default) and takes the form’s own', async () => {
      await setCaptcha({ provider: 'recaptcha', siteKey: 'k', secret: 's' });
      const low = await submit(unique('low'));
      expect(low.status).toBe(400);
      expect(low.body.errors).toEqual([
        'captcha: the reCAPTCHA score is too low',
      ]);
      const lowered = await setCaptcha({
        provider: 'recaptcha',
        siteKey: 'k',
        minScore: 0.2,
      });
      expect(lowered.status).toBe(200);
      expect(lowered.body.captcha).toEqual({
        provider: 'recaptcha',
        siteKey: 'k',
        minScore: 0.2,
        secretSet: true,
        graceUntil: null,
      });
      expect((await submit(unique('low'))).status).toBe(200);
      // The secret left out was kept.
      expect(provider.received.at(-1)!.fields.secret).toBe('s');
    });

    it('stores the post as spam when the provider does not answer within 5 seconds', async () => {
      await setCaptcha({ provider: 'turnstile', secret: 's' });
      const started = Date.now();
      const res = await request(`${t.url}/api/submit/${form.form.id}`, {
        json: { ...person, 'cf-turnstile-response': unique('slow') },
      });
      const took = Date.now() - started;
      expect(res.status).toBe(200);
      expect(took).toBeGreaterThanOrEqual(4900);
      const [row] = await stored();
      expect(row.spamReasons).toEqual(['captcha-unavailable']);
    }, 20_000);
  });

  describe('the form property captcha', () => {
    beforeEach(async () => {
      const { account } = await createAccount(t);
      form = await createForm(t, account.id);
    });

    it('never shows the secret and keeps it encrypted at rest', async () => {
      const res = await setCaptcha({
        provider: 'hcaptcha',
        siteKey: ' site ',
        secret: 'top-secret-value',
      });
      expect(res.status).toBe(200);
      expect(res.body.captcha).toEqual({
        provider: 'hcaptcha',
        siteKey: 'site',
        minScore: null,
        secretSet: true,
        graceUntil: null,
      });
      expect(res.text).not.toContain('top-secret-value');
      const read = await request(formUrl(), { apiKey: form.apiKey });
      expect(read.text).not.toContain('top-secret-value');
      const [row] = await t.dataSource.query(
        'SELECT captcha, captchaSecretEncrypted FROM form WHERE id = ?',
        [form.form.id],
      );
      expect(row.captchaSecretEncrypted).not.toContain('top-secret-value');
      expect(
        t.app.get(SecretBoxService).decrypt(row.captchaSecretEncrypted),
      ).toBe('top-secret-value');
      const off = await setCaptcha(null);
      expect(off.body.captcha).toBeNull();
      const [cleared] = await t.dataSource.query(
        'SELECT captcha, captchaSecretEncrypted FROM form WHERE id = ?',
        [form.form.id],
      );
      expect([cleared.captcha, cleared.captchaSecretEncrypted]).toEqual([
        null,
        null,
      ]);
    });

    it('refuses a provider without its secret and settings that do not apply', async () => {
      const cases: Array<[unknown, string[]]> = [
        [
          { provider: 'turnstile', siteKey: 'k' },
          [
            'captcha.secret is required for turnstile: the secret key the provider gave you',
          ],
        ],
        [
          { provider: 'altcha', secret: 's', minScore: 0.5 },
          [
            'captcha.secret is not used by altcha: leave it out',
            'captcha.minScore is only used by recaptcha',
          ],
        ],
        [
          { provider: 'friendly' },
          [
            'captcha.provider must be one of: altcha, turnstile, hcaptcha, recaptcha',
          ],
        ],
        [
          { provider: 'recaptcha', secret: 's', minScore: 2 },
          ['captcha.minScore must be at most 1'],
        ],
        ['altcha', ['captcha must be an object or null']],
      ];
      for (const [captcha, errors] of cases) {
        const res = await setCaptcha(captcha);
        expect(res.status, JSON.stringify(captcha)).toBe(400);
        expect(res.body).toEqual({ error: 'Validation failed', errors });
      }
      const read = await request(formUrl(), { apiKey: form.apiKey });
      expect(read.body.captcha).toBeNull();
    });

    it('takes captcha on create and PUT, and keeps the token fields out of the data', async () => {
      const created = await request(`${t.url}/api/v1/forms`, {
        apiKey: form.apiKey,
        json: {
          name: 'With CAPTCHA',
          captcha: { provider: 'turnstile', siteKey: 'k', secret: 's' },
        },
      });
      expect(created.status).toBe(201);
      expect(created.body.captcha).toEqual({
        provider: 'turnstile',
        siteKey: 'k',
        minScore: null,
        secretSet: true,
        graceUntil: null,
      });
      const put = await request(`${t.url}/api/v1/forms/${created.body.id}`, {
        method: 'PUT',
        apiKey: created.body.apiKey,
        json: { name: 'Plain again' },
      });
      expect(put.body.captcha).toBeNull();
      // Without a CAPTCHA the token fields are still control fields: never stored.
      const res = await request(`${t.url}/api/submit/${created.body.id}`, {
        json: {
          message: 'hi',
          altcha: 'x',
          'cf-turnstile-response': 'y',
          'h-captcha-response': 'z',
          'g-recaptcha-response': 'w',
        },
      });
      expect(res.status).toBe(200);
      const [row] = await t.dataSource
        .getRepository(Submission)
        .findBy({ formId: created.body.id });
      expect(row.data).toEqual({ message: 'hi' });
    });
  });
});
