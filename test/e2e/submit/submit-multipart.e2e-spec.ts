// multipart/form-data on POST /api/submit/:formId: what `fetch(url, {body: new FormData(form)})`
// and `<form enctype="multipart/form-data">` send, under the form-encoded rules. Scripts get
// the JSON answers byte for byte; the pages browsers get are in submit-navigation.e2e-spec.ts.
import { UNSUPPORTED_MANAGEMENT_TYPE_MESSAGE } from '../../../src/common/openapi/openapi-document.js';
import { ulid } from 'ulid';
import { FormDomain } from '../../../src/domain-verification/form-domain.entity.js';
import { Submission } from '../../../src/submissions/submission.entity.js';
import { createAccount } from '../../factories/accounts.js';
import { createForm } from '../../factories/forms.js';
import { expectProblem } from '../../support/answers.js';
import { request, type HttpResponse } from '../../support/http.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

const RECEIVED_JSON = '{"success":true,"message":"Submission received"}';

/** A multipart body written by hand, for what FormData cannot express. */
function rawMultipart(
  parts: Array<{ name: string; value: string; filename?: string }>,
  boundary = 'formgate-test-boundary',
): { body: Buffer; contentType: string } {
  const chunks = parts.map((part) => {
    const file =
      part.filename === undefined
        ? ''
        : `; filename="${part.filename}"\r\nContent-Type: application/octet-stream`;
    return `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"${file}\r\n\r\n${part.value}\r\n`;
  });
  return {
    body: Buffer.from(`${chunks.join('')}--${boundary}--\r\n`, 'utf8'),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

async function postFormData(
  url: string,
  data: FormData,
  headers: Record<string, string> = {},
): Promise<HttpResponse> {
  const response = await fetch(url, { method: 'POST', body: data, headers });
  const text = await response.text();
  const json = (response.headers.get('content-type') ?? '').includes('json');
  return {
    status: response.status,
    headers: response.headers,
    text,
    body: json && text ? JSON.parse(text) : undefined,
  };
}

function formData(entries: Array<[string, string | Blob, string?]>): FormData {
  const data = new FormData();
  for (const [name, value, filename] of entries) {
    if (typeof value === 'string') data.append(name, value);
    else data.append(name, value, filename);
  }
  return data;
}

describe('multipart/form-data submissions (e2e)', () => {
  let t: TestApp;
  let accountId: string;
  let formId: string;

  beforeAll(async () => {
    t = await createTestApp({
      env: { SUBMIT_RATE_LIMIT: '100000', SUBMIT_BODY_LIMIT: '4096' },
    });
    accountId = (await createAccount(t)).account.id;
    formId = (await createForm(t, accountId)).form.id;
  });
  afterAll(async () => {
    await t?.close();
  });

  const url = (id = formId) => `${t.url}/api/submit/${id}`;
  const rows = (id = formId) =>
    t.dataSource
      .getRepository(Submission)
      .find({ where: { formId: id }, order: { id: 'ASC' } });
  const countRows = (id = formId) =>
    t.dataSource.getRepository(Submission).countBy({ formId: id });

  function expectRouteHeaders(res: HttpResponse): void {
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('x-ratelimit-limit')).toBe('100000');
    expect(res.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
    expect(res.headers.get('ratelimit-policy')).toBe('"submit";q=100000;w=60');
    expect(res.headers.get('content-type')).toBe(
      'application/json; charset=utf-8',
    );
  }

  it('stores a FormData post exactly as sent and answers the JSON of a JSON post, byte for byte', async () => {
    const message = 'Grüße, 東京 👋\r\nline two + & = % %20 a=b&c';
    const res = await postFormData(
      url(),
      formData([
        ['name', 'Zoë Ångström'],
        ['email', 'zoe@example.com'],
        ['message', message],
        ['_honeypot', ''],
        ['_redirect', 'https://elsewhere.example/thanks'],
      ]),
      { origin: 'https://www.example.org' },
    );
    expect(res.status).toBe(200);
    expect(res.text).toBe(RECEIVED_JSON);
    expectRouteHeaders(res);
    const [row] = await rows();
    expect(row.data).toEqual({
      name: 'Zoë Ångström',
      email: 'zoe@example.com',
      message,
    });
    expect(row.origin).toBe('https://www.example.org');
  });

  it('answers a filled honeypot with the same 200 and stores nothing', async () => {
    const before = await countRows();
    const res = await postFormData(
      url(),
      formData([
        ['name', 'Bot'],
        ['email', 'bot@example.com'],
        ['_honeypot', 'http://spam.example'],
      ]),
    );
    expect(res.status).toBe(200);
    expect(res.text).toBe(RECEIVED_JSON);
    expect(await countRows()).toBe(before);
  });

  it('validates like a form-encoded post: required, email, unknown and repeated keys', async () => {
    const before = await countRows();
    const missing = await postFormData(
      url(),
      formData([
        ['email', 'not-an-address'],
        ['Name', 'wrong case'],
      ]),
    );
    expectProblem(missing, 400, {
      error: 'Validation failed',
      errors: [
        'name is required',
        'email must be a valid email address',
        '"Name" is not a field of this form (field ids are case-sensitive: did you mean "name"?)',
      ],
    });
    expectRouteHeaders(missing);
    const repeated = await postFormData(
      url(),
      formData([
        ['name', 'A'],
        ['name', 'B'],
        ['email', 'a@example.com'],
      ]),
    );
    expect(repeated.status).toBe(400);
    expect(repeated.body.errors).toEqual([
      'name must be a single value, not a list (was the key sent more than once?)',
    ]);
    expect(await countRows()).toBe(before);
  });

  it('refuses a file part with a 400 naming its field, and stores nothing', async () => {
    const before = await countRows();
    const res = await postFormData(
      url(),
      formData([
        ['name', 'Ada'],
        ['email', 'ada@example.com'],
        [
          'cv',
          new Blob(['%PDF-1.4 ...'], { type: 'application/pdf' }),
          'cv.pdf',
        ],
      ]),
    );
    expectProblem(res, 400, {
      error: 'Validation failed',
      errors: ['cv: file uploads are not accepted'],
    });
    expectRouteHeaders(res);
    expect(await countRows()).toBe(before);
  });

  it('ignores an empty file input (no file chosen)', async () => {
    const before = await countRows();
    const { body, contentType } = rawMultipart([
      { name: 'name', value: 'Ada' },
      { name: 'email', value: 'ada@example.com' },
      { name: 'attachment', value: '', filename: '' },
    ]);
    const res = await request(url(), {
      headers: { 'content-type': contentType },
      body,
    });
    expect(res.status).toBe(200);
    expect(await countRows()).toBe(before + 1);
  });

  it('applies SUBMIT_BODY_LIMIT to the whole body, declared or streamed, with a 413', async () => {
    const before = await countRows();
    const parts = Array.from({ length: 40 }, (_, i) => ({
      name: `k${i}`,
      value: 'x'.repeat(100),
    }));
    const big = rawMultipart(parts);
    expect(big.body.length).toBeGreaterThan(4096);
    const declared = await request(url(), {
      headers: { 'content-type': big.contentType },
      body: big.body,
    });
    expectProblem(declared, 413, 'Request body is too large');
    expectRouteHeaders(declared);

    // No Content-Length: the parser counts what arrives.
    const streamed = await fetch(url(), {
      method: 'POST',
      headers: { 'content-type': big.contentType },
      body: new ReadableStream({
        start(controller) {
          controller.enqueue(new Uint8Array(big.body));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(await streamed.json()).toEqual({
      error: 'Request body is too large',
    });
    expect(await countRows()).toBe(before);
  });

  it.each([
    ['no boundary', 'multipart/form-data', '--x\r\n\r\n'],
    [
      'a body cut short',
      'multipart/form-data; boundary=X',
      '--X\r\nContent-Disposition: form-data; name="name"\r\n\r\nAda',
    ],
    ['garbage', 'multipart/form-data; boundary=X', 'hello world'],
  ])(
    'answers a malformed multipart body (%s) with a 400 {error}',
    async (_what, contentType, body) => {
      const before = await countRows();
      const res = await request(url(), {
        headers: { 'content-type': contentType },
        body,
      });
      expect(res.status).toBe(400);
      expect(Object.keys(res.body)).toEqual(['error']);
      expect(res.body.error).toMatch(
        /^Request body is not valid multipart\/form-data/,
      );
      expectRouteHeaders(res);
      expect(await countRows()).toBe(before);
    },
  );

  it('treats an empty multipart body as an empty submission', async () => {
    const res = await request(url(), {
      headers: { 'content-type': 'multipart/form-data; boundary=X' },
      body: '',
    });
    expectProblem(res, 400, {
      error: 'Validation failed',
      errors: ['name is required', 'email is required'],
    });
  });

  it('refuses a __proto__ part with a 400 and pollutes nothing', async () => {
    const { body, contentType } = rawMultipart([
      { name: '__proto__', value: 'x' },
      { name: 'name', value: 'Ada' },
    ]);
    const res = await request(url(), {
      headers: { 'content-type': contentType },
      body,
    });
    expectProblem(
      res,
      400,
      'Request body contains a forbidden key (__proto__ or constructor)',
    );
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it('answers an unknown form with 404 and a foreign site with 403', async () => {
    const data = () =>
      formData([
        ['name', 'Ada'],
        ['email', 'ada@example.com'],
      ]);
    const unknown = await postFormData(url('no-such-form'), data());
    expect(unknown.status).toBe(404);
    expect(unknown.text).toBe('{"error":"Form not found"}');
    expectRouteHeaders(unknown);

    const guarded = (
      await createForm(t, accountId, { domainVerification: true })
    ).form.id;
    await t.dataSource.getRepository(FormDomain).insert({
      id: ulid(),
      formId: guarded,
      domain: 'example.com',
      token: 'multipart-token',
      status: 'verified',
      verifiedAt: new Date(),
      lastCheckedAt: new Date(),
      lastError: null,
      createdAt: new Date(),
    });
    const foreign = await postFormData(url(guarded), data(), {
      origin: 'https://evil.example',
    });
    expect(foreign.status).toBe(403);
    expect(Object.keys(foreign.body)).toEqual(['error']);
    expectRouteHeaders(foreign);
    const verified = await postFormData(url(guarded), data(), {
      origin: 'https://shop.example.com',
    });
    expect(verified.status).toBe(200);
    expect(await countRows(guarded)).toBe(1);
  });

  it('still answers 415 for multipart bodies on every other route', async () => {
    const { apiKey } = await createAccount(t);
    const { body, contentType } = rawMultipart([{ name: 'name', value: 'X' }]);
    const api = await request(`${t.url}/api/v1/forms`, {
      method: 'POST',
      apiKey,
      headers: { 'content-type': contentType },
      body,
    });
    expect(api.status).toBe(415);
    // The management API reads JSON only, and says so.
    expect(api.body).toEqual({ error: UNSUPPORTED_MANAGEMENT_TYPE_MESSAGE });
    expect(api.headers.get('access-control-allow-origin')).toBeNull();
    const dashboard = await request(`${t.url}/dashboard/login`, {
      method: 'POST',
      headers: { 'content-type': contentType },
      body,
    });
    expect(dashboard.status).toBe(415);
  });

  it('documents multipart in OpenAPI', async () => {
    const res = await request(`${t.url}/docs-json`);
    const operation = res.body.paths['/api/submit/{formId}'].post;
    expect(Object.keys(operation.requestBody.content).sort()).toEqual([
      'application/json',
      'application/x-www-form-urlencoded',
      'multipart/form-data',
    ]);
  });
});
