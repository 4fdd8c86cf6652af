// A form's redirectUrl and successMessage (management API), and where a browser posting
// natively is sent: 303 to redirectUrl, or to a `_redirect` on redirectUrl's host or on a
// verified domain of the form — never anywhere else (no open redirect).
import { ulid } from 'ulid';
import { FormDomain } from '../../../src/domain-verification/form-domain.entity.js';
import { Submission } from '../../../src/submissions/submission.entity.js';
import { createAccount, type TestAccount } from '../../factories/accounts.js';
import { CONTACT_FIELDS } from '../../factories/forms.js';
import { request } from '../../support/http.js';
import { navigate, pageText } from '../../support/navigation.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

const VALID = { name: 'Ada', email: 'ada@example.com' };
const THANKS = 'https://good.example/thanks?from=form';

describe('redirectUrl, successMessage and _redirect (e2e)', () => {
  let t: TestApp;
  let owner: TestAccount;

  beforeAll(async () => {
    t = await createTestApp({ env: { SUBMIT_RATE_LIMIT: '100000' } });
    owner = await createAccount(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  const api = (path = '') => `${t.url}/api/v1/forms${path}`;
  const submitUrl = (id: string) => `${t.url}/api/submit/${id}`;
  const countRows = (formId: string) =>
    t.dataSource.getRepository(Submission).countBy({ formId });

  async function createWith(body: Record<string, unknown>): Promise<string> {
    const res = await request(api(), {
      apiKey: owner.apiKey,
      json: { name: 'Contact', fields: CONTACT_FIELDS, ...body },
    });
    expect(res.status, res.text).toBe(201);
    return res.body.id as string;
  }

  async function verify(formId: string, domain: string): Promise<void> {
    await t.dataSource.getRepository(FormDomain).insert({
      id: ulid(),
      formId,
      domain,
      token: `token-${ulid()}`,
      status: 'verified',
      verifiedAt: new Date(),
      lastCheckedAt: new Date(),
      lastError: null,
      createdAt: new Date(),
    });
    // Domains change through the API in real life, which drops the cached form.
    await request(api(`/${formId}`), {
      method: 'PATCH',
      apiKey: owner.apiKey,
      json: {},
    });
  }

  describe('the management API', () => {
    it('creates, reads, replaces and patches both properties', async () => {
      const created = await request(api(), {
        apiKey: owner.apiKey,
        json: {
          name: 'Contact',
          redirectUrl: THANKS,
          successMessage: '  Thanks, we will write back.  ',
        },
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        redirectUrl: THANKS,
        successMessage: 'Thanks, we will write back.',
      });
      const id = created.body.id as string;
      const read = await request(api(`/${id}`), { apiKey: owner.apiKey });
      expect(read.body).toMatchObject({
        redirectUrl: THANKS,
        successMessage: 'Thanks, we will write back.',
      });

      const patched = await request(api(`/${id}`), {
        method: 'PATCH',
        apiKey: owner.apiKey,
        json: { redirectUrl: null },
      });
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({
        redirectUrl: null,
        successMessage: 'Thanks, we will write back.',
      });

      const replaced = await request(api(`/${id}`), {
        method: 'PUT',
        apiKey: owner.apiKey,
        json: { name: 'Contact' },
      });
      expect(replaced.body).toMatchObject({
        redirectUrl: null,
        successMessage: null,
      });
      const cleared = await request(api(`/${id}`), {
        method: 'PATCH',
        apiKey: owner.apiKey,
        json: {
          redirectUrl: 'HTTPS://Bücher.Example:8443/danke ',
          successMessage: '',
        },
      });
      expect(cleared.body).toMatchObject({
        redirectUrl: 'https://xn--bcher-kva.example:8443/danke',
        successMessage: null,
      });
    });

    const NOT_ABSOLUTE =
      'redirectUrl must be an absolute URL starting with http:// or https://';
    it.each<[string, unknown, string]>([
      ['javascript:', 'javascript:alert(1)', NOT_ABSOLUTE],
      ['a protocol-relative URL', '//evil.example/x', NOT_ABSOLUTE],
      ['a path', '/thanks', NOT_ABSOLUTE],
      ['a scheme without //', 'https:evil.example', NOT_ABSOLUTE],
      ['ftp', 'ftp://good.example/', NOT_ABSOLUTE],
      [
        'user info',
        'https://user:pw@good.example/',
        'redirectUrl must not contain user info (user:password@)',
      ],
      [
        'a backslash',
        'https://good.example\\@evil.example',
        'redirectUrl must not contain spaces, control characters or backslashes',
      ],
      [
        'a line break',
        'https://good.example/\r\nSet-Cookie: a=b',
        'redirectUrl must not contain spaces, control characters or backslashes',
      ],
      [
        '2001 characters',
        `https://good.example/${'a'.repeat(1980)}`,
        'redirectUrl must be at most 2000 characters long',
      ],
      ['a number', 42, 'redirectUrl must be a string or null'],
    ])('refuses a redirectUrl with %s', async (_what, redirectUrl, message) => {
      const res = await request(api(), {
        apiKey: owner.apiKey,
        json: { name: 'Contact', redirectUrl },
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        error: 'Validation failed',
        errors: [message],
      });
    });

    it('refuses a successMessage over 500 characters or not a string', async () => {
      for (const [successMessage, message] of [
        ['x'.repeat(501), 'successMessage must be at most 500 characters long'],
        [['a'], 'successMessage must be a string or null'],
      ] as const) {
        const res = await request(api(), {
          apiKey: owner.apiKey,
          json: { name: 'Contact', successMessage },
        });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({
          error: 'Validation failed',
          errors: [message],
        });
      }
      const fits = await request(api(), {
        apiKey: owner.apiKey,
        json: { name: 'Contact', successMessage: '😀'.repeat(500) },
      });
      expect(fits.status).toBe(201);
    });

    it('documents both properties in OpenAPI', async () => {
      const res = await request(`${t.url}/docs-json`);
      const schemas = res.body.components.schemas;
      for (const name of ['CreateFormDto', 'FormResponseDto']) {
        expect(schemas[name].properties.redirectUrl, name).toMatchObject({
          type: 'string',
          nullable: true,
        });
        expect(schemas[name].properties.successMessage, name).toMatchObject({
          type: 'string',
          nullable: true,
        });
      }
    });
  });

  describe('a successful native post', () => {
    it('answers 303 to redirectUrl exactly, and stores the row', async () => {
      const id = await createWith({ redirectUrl: THANKS });
      const res = await navigate(submitUrl(id), VALID);
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe(THANKS);
      expect(res.text).toBe('');
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
      expect(await countRows(id)).toBe(1);
    });

    it('answers the same 303 for a filled honeypot, storing nothing', async () => {
      const id = await createWith({ redirectUrl: THANKS });
      const res = await navigate(submitUrl(id), { ...VALID, _honeypot: 'x' });
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe(THANKS);
      expect(await countRows(id)).toBe(0);
    });

    it('still shows errors as a page, and scripts still get JSON', async () => {
      const id = await createWith({ redirectUrl: THANKS });
      const invalid = await navigate(submitUrl(id), { email: 'x' });
      expect(invalid.status).toBe(400);
      expect(invalid.headers.get('location')).toBeNull();
      // The page names the field by its label.
      expect(pageText(invalid.text)).toContain('Name is required');
      const script = await request(submitUrl(id), { form: VALID });
      expect(script.status).toBe(200);
      expect(script.text).toBe(
        '{"success":true,"message":"Submission received"}',
      );
    });

    it('follows a change of redirectUrl at once', async () => {
      const id = await createWith({ redirectUrl: THANKS });
      expect((await navigate(submitUrl(id), VALID)).status).toBe(303);
      await request(api(`/${id}`), {
        method: 'PATCH',
        apiKey: owner.apiKey,
        json: { redirectUrl: 'https://good.example/merci' },
      });
      const res = await navigate(submitUrl(id), VALID);
      expect(res.headers.get('location')).toBe('https://good.example/merci');
    });
  });

  describe('_redirect', () => {
    let formId: string;

    beforeAll(async () => {
      formId = await createWith({ redirectUrl: THANKS });
      await verify(formId, 'verified.example');
    });

    const target = async (redirect: string) => {
      const res = await navigate(submitUrl(formId), {
        ...VALID,
        _redirect: redirect,
      });
      expect(res.status, redirect).toBe(303);
      return res.headers.get('location');
    };

    it.each([
      'https://good.example/other-thanks',
      'http://good.example:8080/thanks?lang=fr#top',
      'HTTPS://GOOD.EXAMPLE/Upper',
      'https://good.example./trailing-dot',
      'https://verified.example/thanks',
      'https://shop.verified.example/thanks',
    ])(
      'honours %s (redirectUrl host or a verified domain)',
      async (redirect) => {
        expect(await target(redirect)).toBe(new URL(redirect).href);
      },
    );

    it.each([
      'https://evil.example/',
      '//evil.example/',
      '/relative',
      'javascript:alert(document.domain)',
      'data:text/html,<script>alert(1)</script>',
      'https://good.example@evil.example/',
      'https://evil.example@good.example/',
      'https://good.example:x@evil.example/',
      'https://good.example\\@evil.example/',
      'https:\\\\evil.example/',
      'https:/\\evil.example/',
      'https:evil.example',
      'https://good.example.evil.example/',
      'https://good.example%2eevil.example/',
      'https://evil.example%2f.good.example/',
      'https://evil.example#@good.example',
      'https://evil.example?@good.example',
      'https://notverified.example/',
      'https://verified.example.evil.example/',
      'https://xverified.example/',
      ' https://evil.example/',
      'https://evil.example/\r\nSet-Cookie: x=1',
      'https://\tgood.example/',
      'ftp://good.example/',
      '',
    ])('ignores %j and uses redirectUrl', async (redirect) => {
      expect(await target(redirect)).toBe(THANKS);
    });

    it('ignores a repeated _redirect', async () => {
      const body = new URLSearchParams(VALID);
      body.append('_redirect', 'https://good.example/a');
      body.append('_redirect', 'https://good.example/b');
      const res = await navigate(submitUrl(formId), body);
      expect(res.headers.get('location')).toBe(THANKS);
    });

    it('without redirectUrl, honours only verified domains, else shows the thank-you page', async () => {
      const id = await createWith({ successMessage: 'Danke!' });
      await verify(id, 'verified.example');
      const allowed = await navigate(submitUrl(id), {
        ...VALID,
        _redirect: 'https://www.verified.example/danke',
      });
      expect(allowed.status).toBe(303);
      expect(allowed.headers.get('location')).toBe(
        'https://www.verified.example/danke',
      );
      const refused = await navigate(submitUrl(id), {
        ...VALID,
        _redirect: 'https://evil.example/',
      });
      expect(refused.status).toBe(200);
      expect(refused.headers.get('location')).toBeNull();
      expect(pageText(refused.text)).toContain('Danke!');
      expect(await countRows(id)).toBe(2);
    });

    it('is never stored and never changes a script’s JSON answer', async () => {
      const res = await request(submitUrl(formId), {
        form: { ...VALID, _redirect: 'https://good.example/x' },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('location')).toBeNull();
      const rows = await t.dataSource
        .getRepository(Submission)
        .find({ where: { formId } });
      expect(rows.every((row) => !('_redirect' in row.data))).toBe(true);
    });
  });
});
