// /api/submit/:formId answers byte for byte as it did before the Formspree-compatible
// route joined it on the same submit path: every header and the exact body of its
// answers (the values below were recorded from the route before that change; since then
// only the CORS headers name Idempotency-Key and Idempotent-Replayed), and Formspree's
// control fields mean nothing there.
import { Submission } from '../../../src/submissions/submission.entity.js';
import { createAccount, type TestAccount } from '../../factories/accounts.js';
import { CONTACT_FIELDS, createForm } from '../../factories/forms.js';
import { request, type HttpResponse } from '../../support/http.js';
import { navigate } from '../../support/navigation.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

const VALID = { name: 'Ada', email: 'ada@example.com' };

/** Every header but those that change from one request to the next. */
function stableHeaders(res: HttpResponse): string[] {
  const volatile: Record<string, string> = {
    date: '<date>',
    'x-ratelimit-remaining': '<n>',
    'x-ratelimit-reset': '<n>',
    ratelimit: '<state>',
    'retry-after': '<n>',
    'keep-alive': '<keep-alive>',
  };
  return [...res.headers.entries()]
    .map(([name, value]) => `${name}: ${volatile[name] ?? value}`)
    .sort();
}

const ROUTE_HEADERS = [
  'access-control-allow-origin: *',
  'access-control-expose-headers: X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, RateLimit, RateLimit-Policy, Retry-After, Idempotent-Replayed',
  'connection: keep-alive',
  'keep-alive: <keep-alive>',
  'date: <date>',
  'ratelimit: <state>',
  'ratelimit-policy: "submit";q=100000;w=60',
  'x-ratelimit-limit: 100000',
  'x-ratelimit-remaining: <n>',
  'x-ratelimit-reset: <n>',
];

const json = (body: string, extra: string[] = []) =>
  [
    ...ROUTE_HEADERS,
    `content-length: ${Buffer.byteLength(body)}`,
    'content-type: application/json; charset=utf-8',
    ...extra,
  ].sort();

describe('/api/submit/:formId unchanged (e2e)', () => {
  let t: TestApp;
  let owner: TestAccount;
  let formId: string;

  beforeAll(async () => {
    t = await createTestApp({ env: { SUBMIT_RATE_LIMIT: '100000' } });
    owner = await createAccount(t);
    formId = (await createForm(t, owner.account.id)).form.id;
  });
  afterAll(async () => {
    await t?.close();
  });

  const url = (id = formId) => `${t.url}/api/submit/${id}`;
  const rows = (id = formId) =>
    t.dataSource
      .getRepository(Submission)
      .find({ where: { formId: id }, order: { id: 'ASC' } });

  it('answers a success, a validation failure and an unknown form exactly as before', async () => {
    const ok = await request(url(), { json: VALID });
    const okBody = '{"success":true,"message":"Submission received"}';
    expect(ok.status).toBe(200);
    expect(ok.text).toBe(okBody);
    expect(stableHeaders(ok)).toEqual(json(okBody));

    const invalid = await request(url(), { json: { email: 'nope' } });
    const invalidBody =
      '{"error":"Validation failed","errors":["name is required","email must be a valid email address"]}';
    expect(invalid.status).toBe(400);
    expect(invalid.text).toBe(invalidBody);
    expect(stableHeaders(invalid)).toEqual(json(invalidBody));

    const empty = await request(url(), { json: {} });
    const emptyBody =
      '{"error":"Validation failed","errors":["name is required","email is required"]}';
    expect(empty.status).toBe(400);
    expect(empty.text).toBe(emptyBody);

    const missing = await request(url('nope'), { json: VALID });
    const missingBody = '{"error":"Form not found"}';
    expect(missing.status).toBe(404);
    expect(missing.text).toBe(missingBody);
    expect(stableHeaders(missing)).toEqual(json(missingBody));

    const unsupported = await request(url(), {
      body: 'x',
      headers: { 'content-type': 'text/plain' },
    });
    expect(unsupported.status).toBe(415);
    expect(unsupported.text).toBe(
      '{"error":"Unsupported content type: send application/json or application/x-www-form-urlencoded"}',
    );
  });

  it('answers its preflight exactly as before', async () => {
    const res = await request(url(), {
      method: 'OPTIONS',
      headers: {
        origin: 'https://www.example.com',
        'access-control-request-method': 'POST',
      },
    });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(stableHeaders(res)).toEqual(
      [
        'access-control-allow-headers: Content-Type, Accept, Accept-Language, X-Requested-With, Idempotency-Key',
        'access-control-allow-methods: POST, OPTIONS',
        'access-control-allow-origin: *',
        'access-control-expose-headers: X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, RateLimit, RateLimit-Policy, Retry-After, Idempotent-Replayed',
        'access-control-max-age: 86400',
        'connection: keep-alive',
        'date: <date>',
        'keep-alive: <keep-alive>',
      ].sort(),
    );
  });

  it('gives _gotcha and _next no meaning: the row is stored, no redirect', async () => {
    const before = (await rows()).length;
    const res = await request(url(), { json: { ...VALID, _gotcha: 'x' } });
    expect(res.status).toBe(200);
    expect((await rows()).length).toBe(before + 1);
    expect((await rows()).at(-1)?.data).toEqual(VALID);

    const redirecting = await request(`${t.url}/api/v1/forms`, {
      apiKey: owner.apiKey,
      json: {
        name: 'Contact',
        fields: CONTACT_FIELDS,
        redirectUrl: 'https://good.example/thanks',
      },
    });
    const id = redirecting.body.id as string;
    const native = await navigate(url(id), {
      ...VALID,
      _next: 'https://good.example/elsewhere',
    });
    expect(native.status).toBe(303);
    expect(native.headers.get('location')).toBe('https://good.example/thanks');
  });
});
