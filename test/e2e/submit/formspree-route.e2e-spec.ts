// POST /f/:formId over raw HTTP: its CORS (the preflight admits Formspree's client
// headers), the Formspree shapes of every refusal (those Fastify raises before the route
// included), native form posts (thank-you page, 303, `_next` never an open redirect), the
// thank-you page `next` names. Its rate-limit budget, shared with /api/submit, is in
// submit-rate-limit.e2e-spec.ts.
import { ulid } from 'ulid';
import { FormDomain } from '../../../src/domain-verification/form-domain.entity.js';
import { Submission } from '../../../src/submissions/submission.entity.js';
import { createAccount, type TestAccount } from '../../factories/accounts.js';
import { CONTACT_FIELDS, createForm } from '../../factories/forms.js';
import { request } from '../../support/http.js';
import { navigate, pageText } from '../../support/navigation.js';
import { expectRouteHeaders } from '../../support/submit-route.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

const VALID = { name: 'Ada', email: 'ada@example.com' };
const THANKS = 'https://good.example/thanks';

describe('POST /f/:formId over HTTP (e2e)', () => {
  let t: TestApp;
  let owner: TestAccount;
  let formId: string;

  beforeAll(async () => {
    t = await createTestApp({
      env: { SUBMIT_RATE_LIMIT: '100000', SUBMIT_BODY_LIMIT: '2048' },
    });
    owner = await createAccount(t);
    formId = (await createForm(t, owner.account.id)).form.id;
  });
  afterAll(async () => {
    await t?.close();
  });

  const url = (id = formId) => `${t.url}/f/${id}`;
  const countRows = (id = formId) =>
    t.dataSource.getRepository(Submission).countBy({ formId: id });

  async function createWith(body: Record<string, unknown>): Promise<string> {
    const res = await request(`${t.url}/api/v1/forms`, {
      apiKey: owner.apiKey,
      json: { name: 'Contact', fields: CONTACT_FIELDS, ...body },
    });
    expect(res.status, res.text).toBe(201);
    return res.body.id as string;
  }

  async function verify(id: string, domain: string): Promise<void> {
    await t.dataSource.getRepository(FormDomain).insert({
      id: ulid(),
      formId: id,
      domain,
      token: `token-${ulid()}`,
      status: 'verified',
      verifiedAt: new Date(),
      lastCheckedAt: new Date(),
      lastError: null,
      createdAt: new Date(),
    });
    // Domains change through the API in real life, which drops the cached form.
    await request(`${t.url}/api/v1/forms/${id}`, {
      method: 'PATCH',
      apiKey: owner.apiKey,
      json: {},
    });
  }

  it("answers the preflight with 204, admitting Formspree's client headers", async () => {
    const res = await request(url(), {
      method: 'OPTIONS',
      headers: {
        origin: 'https://www.example.com',
        'access-control-request-method': 'POST',
        'access-control-request-headers':
          'content-type,formspree-client,formspree-session-data',
      },
    });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    expect(res.headers.get('access-control-allow-methods')).toBe(
      'POST, OPTIONS',
    );
    const allowed = (res.headers.get('access-control-allow-headers') ?? '')
      .toLowerCase()
      .split(/,\s*/);
    for (const header of [
      'content-type',
      'accept',
      'formspree-client',
      'formspree-session-data',
    ]) {
      expect(allowed).toContain(header);
    }
    // The preflight is not counted: no rate-limit headers.
    expect(res.headers.get('x-ratelimit-limit')).toBeNull();
  });

  it('answers a JSON success with {ok, next}, CORS and the rate-limit headers', async () => {
    const before = await countRows();
    const res = await request(url(), {
      json: { ...VALID, _next: 'https://evil.example/' },
      headers: {
        accept: 'application/json',
        'formspree-client': '@formspree/core@4.0.0',
      },
    });
    expect(res.status).toBe(200);
    expectRouteHeaders(res);
    // _next steers only a navigating browser's redirect, never `next`.
    expect(res.text).toBe(
      JSON.stringify({
        ok: true,
        next: `${t.config.publicUrl}/f/${formId}/thanks`,
      }),
    );
    expect(await countRows()).toBe(before + 1);
  });

  it('gives every refusal the Formspree error shape with CORS', async () => {
    const before = await countRows();
    const unsupported = await request(url(), {
      body: 'name=Ada',
      headers: { 'content-type': 'text/plain' },
    });
    expect(unsupported.status).toBe(415);
    expect(unsupported.headers.get('access-control-allow-origin')).toBe('*');
    expect(unsupported.body).toEqual({
      error: expect.stringContaining('Unsupported content type'),
      errors: [
        { message: expect.stringContaining('Unsupported content type') },
      ],
    });

    const tooLarge = await request(url(), {
      json: { name: 'x'.repeat(4000), email: 'ada@example.com' },
    });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.headers.get('access-control-allow-origin')).toBe('*');
    expect(tooLarge.body).toEqual({
      error: 'Request body is too large',
      errors: [{ message: 'Request body is too large' }],
    });

    const malformed = await request(url(), {
      body: '{"name":',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({
      error: 'Request body is not valid JSON',
      errors: [{ message: 'Request body is not valid JSON' }],
    });

    const zeroBytes = await request(url(), {
      body: '',
      headers: { 'content-type': 'application/json' },
    });
    expect(zeroBytes.status).toBe(400);
    expect(zeroBytes.body.errors).toEqual([
      { code: 'EMPTY', message: zeroBytes.body.error },
    ]);
    const noBody = await request(url(), { method: 'POST' });
    expect(noBody.status).toBe(400);
    expect(noBody.body.errors[0].code).toBe('EMPTY');

    const unknown = await request(url('nope'), { json: VALID });
    expect(unknown.status).toBe(404);
    expectRouteHeaders(unknown);
    expect(unknown.body).toEqual({
      error: 'Form not found',
      errors: [{ code: 'FORM_NOT_FOUND', message: 'Form not found' }],
    });
    expect(await countRows()).toBe(before);
  });

  it('explains itself to a GET, and serves the thank-you page that next names', async () => {
    const get = await request(url());
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST, OPTIONS');

    const id = await createWith({ successMessage: 'Merci, we got it!' });
    const thanks = await request(`${url(id)}/thanks`);
    expect(thanks.status).toBe(200);
    expect(thanks.headers.get('content-type')).toMatch(/^text\/html/);
    expect(thanks.headers.get('access-control-allow-origin')).toBeNull();
    expect(pageText(thanks.text)).toContain('Merci, we got it!');

    const missing = await request(`${url('no-such-form')}/thanks`);
    expect(missing.status).toBe(404);
    expect(pageText(missing.text)).toContain('Form not found');
  });

  it('answers a native post without redirectUrl with the thank-you page', async () => {
    const before = await countRows();
    const res = await navigate(url(), {
      ...VALID,
      _next: 'https://evil.example/',
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('location')).toBeNull();
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(pageText(res.text)).toContain('Thank you');
    expect(await countRows()).toBe(before + 1);

    const invalid = await navigate(url(), { email: 'nope' });
    expect(invalid.status).toBe(400);
    // The page names the field by its label.
    expect(pageText(invalid.text)).toContain('Name is required');
    expect(await countRows()).toBe(before + 1);
  });

  it('303s a native post to redirectUrl, or to a _next on its host or a verified domain only', async () => {
    const id = await createWith({ redirectUrl: THANKS });
    await verify(id, 'verified.example');
    const cases: Array<[string | undefined, string]> = [
      [undefined, THANKS],
      [
        'https://good.example:8443/other?x=1',
        'https://good.example:8443/other?x=1',
      ],
      [
        'https://shop.verified.example/done',
        'https://shop.verified.example/done',
      ],
      ['https://evil.example/phish', THANKS],
      ['https://good.example.evil.example/', THANKS],
      ['//evil.example/', THANKS],
      ['javascript:alert(1)', THANKS],
      ['https://user:pw@evil.example@good.example/', THANKS],
    ];
    for (const [next, location] of cases) {
      const body: Record<string, string> = { ...VALID };
      if (next !== undefined) body._next = next;
      const res = await navigate(url(id), body);
      expect(res.status, String(next)).toBe(303);
      expect(res.headers.get('location'), String(next)).toBe(location);
      expect(res.text).toBe('');
    }
    expect(await countRows(id)).toBe(cases.length);
  });

  it('303s a filled _gotcha like a success and stores nothing', async () => {
    const id = await createWith({ redirectUrl: THANKS });
    const res = await navigate(url(id), { ...VALID, _gotcha: 'bot' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(THANKS);
    expect(await countRows(id)).toBe(0);
  });
});

describe('_subject and _replyto on /f reach the notification, unstored (e2e)', () => {
  let t: TestApp;
  let formId: string;

  beforeAll(async () => {
    // No worker: the outbox event stays for the test to read.
    t = await createTestApp({
      env: { WORKER_ENABLED: 'false', WEBHOOK_ALLOW_PRIVATE: 'true' },
    });
    const { account } = await createAccount(t);
    const form = await createForm(t, account.id);
    formId = form.form.id;
    const hook = await request(`${t.url}/api/v1/forms/${formId}/webhooks`, {
      apiKey: form.apiKey,
      json: { url: 'http://127.0.0.1:9/hook' },
    });
    expect(hook.status).toBe(201);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('keeps them for the email channel, ignores _cc and _language, stores none', async () => {
    const res = await request(`${t.url}/f/${formId}`, {
      json: {
        ...VALID,
        _subject: 'Website enquiry',
        _replyto: 'visitor@example.com',
        _cc: 'copy@example.com',
        _language: 'de',
      },
    });
    expect(res.status).toBe(200);
    const [row] = await t.dataSource
      .getRepository(Submission)
      .find({ where: { formId } });
    expect(row.data).toEqual(VALID);
    const events = (await t.dataSource.query(
      'SELECT submissions FROM outbox_event',
    )) as Array<{ submissions: unknown }>;
    expect(events.length).toBe(1);
    const listed = (
      typeof events[0].submissions === 'string'
        ? JSON.parse(events[0].submissions)
        : events[0].submissions
    ) as unknown[];
    expect(listed).toEqual([
      [
        row.id,
        { _subject: 'Website enquiry', _replyto: 'visitor@example.com' },
      ],
    ]);
  });
});
