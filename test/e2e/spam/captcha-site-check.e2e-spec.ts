// A third-party CAPTCHA token solved on another site does not pass: when the form has domain
// verification on, the hostname the provider reports must be a verified domain of the form
// (or a subdomain, or a development host), else 400 `captcha: …` and nothing stored; and a
// reCAPTCHA v3 token must carry the form's `captcha.action` when it sets one. Tokens from
// the form's own site still pass, and a form without domain verification checks no host.
import { ownedAccountId } from '../../support/stored-rows.js';
import { Submission } from '../../../src/submissions/submission.entity.js';
import { createAccount } from '../../factories/accounts.js';
import { createDomain } from '../../factories/domains.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import {
  startCaptchaProvider,
  type CaptchaProviderServer,
} from '../../support/captcha-provider.js';
import { freshEmail, signedInClient } from '../../support/dashboard-client.js';
import { request } from '../../support/http.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

const RECEIVED = { success: true, message: 'Submission received' };
const person = { name: 'Ada', email: 'ada@example.com' };
const SITE = 'https://www.shop.example';

const PROVIDERS = [
  { provider: 'turnstile', name: 'Turnstile', field: 'cf-turnstile-response' },
  { provider: 'hcaptcha', name: 'hCaptcha', field: 'h-captcha-response' },
  { provider: 'recaptcha', name: 'reCAPTCHA', field: 'g-recaptcha-response' },
] as const;

describe('where a CAPTCHA token was solved (e2e)', () => {
  let t: TestApp;
  let provider: CaptchaProviderServer;
  let count = 0;
  const token = (made: string) => `good${made}#${++count}-${'x'.repeat(30)}`;

  beforeAll(async () => {
    provider = await startCaptchaProvider();
    t = await createTestApp({
      env: {
        ...provider.env,
        SUBMIT_RATE_LIMIT: '1000',
        TRUST_PROXY: '127.0.0.1',
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await provider?.close();
  });

  async function formWith(
    captcha: Record<string, unknown>,
    domainVerification: boolean,
  ): Promise<TestForm> {
    const { account } = await createAccount(t);
    const form = await createForm(t, account.id, { domainVerification });
    await createDomain(t, form.form.id, {
      domain: 'shop.example',
      status: 'verified',
    });
    // The change also clears the form from the submit cache, domains included.
    const saved = await request(`${t.url}/api/v1/forms/${form.form.id}`, {
      method: 'PATCH',
      apiKey: form.apiKey,
      json: { captcha: { secret: 'secret', graceUntil: null, ...captcha } },
    });
    expect(saved.status).toBe(200);
    return form;
  }
  const stored = (form: TestForm) =>
    t.dataSource.getRepository(Submission).countBy({ formId: form.form.id });
  const submit = (form: TestForm, field: string, value: string) =>
    request(`${t.url}/api/submit/${form.form.id}`, {
      json: { ...person, [field]: value },
      headers: { origin: SITE },
    });

  describe.each(PROVIDERS)(
    '$name',
    ({ provider: name, name: label, field }) => {
      it('refuses a token solved on another site (400), storing nothing', async () => {
        const form = await formWith({ provider: name }, true);
        const answer = await submit(form, field, token('@evil.example'));
        expect(answer.status).toBe(400);
        expect(answer.body).toEqual({
          error: 'Validation failed',
          errors: [
            `captcha: the ${label} token was solved on a site that is not a verified domain of this form: solve the CAPTCHA again`,
          ],
        });
        expect(answer.headers.get('access-control-allow-origin')).toBe('*');
        // A look-alike that merely ends with the domain is another site too.
        const alike = await submit(form, field, token('@evilshop.example'));
        expect(alike.status).toBe(400);
        expect(await stored(form)).toBe(0);
      });

      it('accepts a token solved on a verified domain, a subdomain or a development host', async () => {
        const form = await formWith({ provider: name }, true);
        for (const host of ['shop.example', 'www.shop.example', 'localhost']) {
          const answer = await submit(form, field, token(`@${host}`));
          expect(answer.status, host).toBe(200);
          expect(answer.body).toEqual(RECEIVED);
        }
        expect(await stored(form)).toBe(3);
      });

      it('checks no host when the form has domain verification off', async () => {
        const form = await formWith({ provider: name }, false);
        const answer = await submit(form, field, token('@elsewhere.example'));
        expect(answer.status).toBe(200);
        expect(await stored(form)).toBe(1);
      });
    },
  );

  describe('reCAPTCHA v3 action', () => {
    it('refuses a token made for another action, accepts the expected one', async () => {
      const form = await formWith(
        { provider: 'recaptcha', action: 'contact_form' },
        false,
      );
      const refused = await submit(
        form,
        'g-recaptcha-response',
        token('!login'),
      );
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({
        error: 'Validation failed',
        errors: [
          'captcha: the reCAPTCHA token was made for another action: solve the CAPTCHA again',
        ],
      });
      const passed = await submit(
        form,
        'g-recaptcha-response',
        token('!contact_form'),
      );
      expect(passed.status).toBe(200);
      expect(await stored(form)).toBe(1);
    });

    it('shows the action on the form, and accepts any action without one', async () => {
      const form = await formWith(
        { provider: 'recaptcha', action: 'submit' },
        false,
      );
      const shown = await request(`${t.url}/api/v1/forms/${form.form.id}`, {
        apiKey: form.apiKey,
      });
      expect(shown.status).toBe(200);
      expect(shown.body.captcha).toEqual({
        provider: 'recaptcha',
        siteKey: null,
        minScore: null,
        action: 'submit',
        secretSet: true,
        graceUntil: null,
      });
      const plain = await formWith({ provider: 'recaptcha' }, false);
      expect(
        (await submit(plain, 'g-recaptcha-response', token('!anything')))
          .status,
      ).toBe(200);
    });

    it('refuses an action for another provider or a malformed one (400)', async () => {
      const { account } = await createAccount(t);
      const form = await createForm(t, account.id);
      const patch = (captcha: unknown) =>
        request(`${t.url}/api/v1/forms/${form.form.id}`, {
          method: 'PATCH',
          apiKey: form.apiKey,
          json: { captcha },
        });
      const other = await patch({
        provider: 'turnstile',
        secret: 's',
        action: 'submit',
      });
      expect(other.status).toBe(400);
      expect(other.body.errors).toEqual([
        'captcha.action is only used by recaptcha',
      ]);
      const malformed = await patch({
        provider: 'recaptcha',
        secret: 's',
        action: 'no spaces here',
      });
      expect(malformed.status).toBe(400);
      expect(malformed.body.errors).toEqual([
        'captcha.action may hold only letters, digits, "_" and "/"',
      ]);
      const stored = await request(`${t.url}/api/v1/forms/${form.form.id}`, {
        apiKey: form.apiKey,
      });
      expect(stored.body.captcha).toBeNull();
    });

    it('is set and kept by the dashboard’s spam settings', async () => {
      const email = freshEmail('action');
      const client = await signedInClient(t.url, '203.0.113.60', email);
      const account = { id: await ownedAccountId(t.dataSource, email) };
      const form = await createForm(t, account.id);
      const settings = `/dashboard/forms/${form.form.id}/settings`;
      const post = (fields: Record<string, string>) =>
        client.post(
          `${settings}/spam`,
          {
            captchaProvider: 'recaptcha',
            captchaSiteKey: 'site',
            spamFilterEnabled: 'on',
            maxLinks: '5',
            blockedWords: '',
            ...fields,
          },
          { from: settings },
        );
      const saved = await post({
        captchaSecret: 'secret',
        captchaAction: 'contact_form',
      });
      expect(saved.status).toBe(303);
      const shown = await client.get(settings);
      expect(shown.html).toContain('value="contact_form"');
      const refused = await post({ captchaAction: 'not valid' });
      expect(refused.status).toBe(400);
      expect(refused.html).toContain(
        'Expected action may hold only letters, digits, &quot;_&quot; and &quot;/&quot;',
      );
      const api = await request(`${t.url}/api/v1/forms/${form.form.id}`, {
        apiKey: form.apiKey,
      });
      expect(api.body.captcha).toEqual({
        provider: 'recaptcha',
        siteKey: 'site',
        minScore: null,
        action: 'contact_form',
        secretSet: true,
        // Switched on for a form that already takes posts: its grace started (docs/spam.md).
        graceUntil: expect.any(String),
      });
    });
  });
});
