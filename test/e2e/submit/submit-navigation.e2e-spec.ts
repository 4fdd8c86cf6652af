// A browser navigating (a native HTML form post) gets HTML pages with the same statuses as
// the JSON answers; every other client keeps the JSON. Redirects (303, _redirect) are in
// submit-redirect.e2e-spec.ts, multipart for scripts in submit-multipart.e2e-spec.ts.
import { ulid } from 'ulid';
import { TemporarilyUnavailableException } from '../../../src/common/errors/errors.js';
import { FormDomain } from '../../../src/domain-verification/form-domain.entity.js';
import { FormsService } from '../../../src/forms/forms.service.js';
import { Submission } from '../../../src/submissions/submission.entity.js';
import { CommitQueue } from '../../../src/submit/commit/commit-queue.js';
import { createAccount } from '../../factories/accounts.js';
import { createForm } from '../../factories/forms.js';
import type { HttpResponse } from '../../support/http.js';
import {
  navigate,
  NAVIGATION_HEADERS,
  pageText,
  post,
} from '../../support/navigation.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

const VALID = { name: 'Ada', email: 'ada@example.com' };
const REFERER = 'https://www.example.org/contact?ref=1';
const RECEIVED_JSON = '{"success":true,"message":"Submission received"}';

/** What every page carries: HTML, a CSP that loads nothing else, CORS, rate-limit headers. */
function expectPage(res: HttpResponse, status: number): string {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
  const csp = res.headers.get('content-security-policy') ?? '';
  expect(csp).toContain("default-src 'none'");
  expect(csp).toMatch(/style-src 'sha256-[A-Za-z0-9+/=]+'/);
  expect(csp).toContain("frame-ancestors 'none'");
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('access-control-allow-origin')).toBe('*');
  expect(res.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
  expect(res.headers.get('ratelimit-policy')).toMatch(/^"submit";q=\d+;w=60$/);
  expect(res.headers.get('set-cookie')).toBeNull();
  expect(res.text).toMatch(/^<!doctype html>\n<html lang="en">/);
  expect(res.text).toContain('<main>');
  return pageText(res.text);
}

describe('native form posts get HTML pages (e2e)', () => {
  let t: TestApp;
  let accountId: string;
  let formId: string;

  beforeAll(async () => {
    t = await createTestApp({
      env: { SUBMIT_RATE_LIMIT: '100000', SUBMIT_BODY_LIMIT: '2048' },
    });
    accountId = (await createAccount(t)).account.id;
    formId = (await createForm(t, accountId)).form.id;
  });
  afterAll(async () => {
    await t?.close();
  });

  const url = (id = formId) => `${t.url}/api/submit/${id}`;
  const countRows = (id = formId) =>
    t.dataSource.getRepository(Submission).countBy({ formId: id });

  it('shows the default thank-you page with a link back, and stores the row', async () => {
    const before = await countRows();
    const res = await navigate(url(), VALID, { referer: REFERER });
    const text = expectPage(res, 200);
    expect(text).toContain('Thank you! Your message has been sent.');
    expect(res.text).toContain(
      '<a href="https://www.example.org/contact?ref=1" data-back>Back to the site</a>',
    );
    expect(res.headers.get('location')).toBeNull();
    expect(await countRows()).toBe(before + 1);
  });

  it("shows the form's successMessage, escaped, and no link without a Referer", async () => {
    const form = await createForm(t, accountId);
    await t.app.get(FormsService).patch(form.form, {
      successMessage: 'Merci <b>beaucoup</b> & "à bientôt"',
    });
    const res = await navigate(url(form.form.id), VALID);
    const text = expectPage(res, 200);
    expect(res.text).toContain(
      'Merci &lt;b&gt;beaucoup&lt;/b&gt; &amp; &quot;à bientôt&quot;',
    );
    expect(res.text).not.toContain('<b>');
    expect(text).toContain("Use your browser's Back button");
  });

  it('shows the same thank-you page for a filled honeypot, storing nothing', async () => {
    const before = await countRows();
    const res = await navigate(
      url(),
      { ...VALID, _honeypot: 'spam' },
      { referer: REFERER },
    );
    const text = expectPage(res, 200);
    expect(text).toContain('Thank you! Your message has been sent.');
    expect(await countRows()).toBe(before);
  });

  it('lists every validation error, naming the field, with a way back (form-encoded and multipart)', async () => {
    const before = await countRows();
    const encoded = await navigate(
      url(),
      { email: 'nope', '<i>x</i>': '1' },
      { referer: REFERER },
    );
    const text = expectPage(encoded, 400);
    expect(text).toContain('Please check the form');
    // Fields are named by their labels; a key the form does not have, as it was sent.
    expect(encoded.text).toContain('<li>Name is required</li>');
    expect(encoded.text).toContain(
      '<li>Email must be a valid email address</li>',
    );
    expect(encoded.text).toContain(
      '<li>&quot;&lt;i&gt;x&lt;/i&gt;&quot; is not a field of this form</li>',
    );
    expect(encoded.text).toContain('data-back>Back to the form</a>');

    const data = new FormData();
    data.append('email', 'ada@example.com');
    data.append('cv', new Blob(['x']), 'cv.txt');
    const multipart = await navigate(url(), data);
    expectPage(multipart, 400);
    expect(multipart.text).toContain(
      '<li>cv: file uploads are not accepted</li>',
    );
    expect(await countRows()).toBe(before);
  });

  it('explains 404, 403, 413 and 415 in words', async () => {
    const missing = await navigate(url('no-such-form'), VALID);
    expect(expectPage(missing, 404)).toContain('Form not found');

    const guarded = (
      await createForm(t, accountId, { domainVerification: true })
    ).form.id;
    await t.dataSource.getRepository(FormDomain).insert({
      id: ulid(),
      formId: guarded,
      domain: 'example.com',
      token: 'navigation-token',
      status: 'verified',
      verifiedAt: new Date(),
      lastCheckedAt: new Date(),
      lastError: null,
      createdAt: new Date(),
    });
    const foreign = await navigate(url(guarded), VALID, {
      origin: 'https://evil.example',
    });
    expect(expectPage(foreign, 403)).toContain(
      'This site may not use this form',
    );
    expect(await countRows(guarded)).toBe(0);

    const tooLarge = await navigate(url(), {
      ...VALID,
      message: 'x'.repeat(3000),
    });
    expect(expectPage(tooLarge, 413)).toContain('Too much data');

    const plain = await post(url(), 'name=Ada', {
      ...NAVIGATION_HEADERS,
      'content-type': 'text/plain',
    });
    expect(expectPage(plain, 415)).toContain('Unsupported form');
  });

  it('explains a 503 and keeps its Retry-After', async () => {
    const queue = t.app.get(CommitQueue);
    const spy = vi
      .spyOn(queue, 'commit')
      .mockRejectedValueOnce(new TemporarilyUnavailableException())
      .mockRejectedValueOnce(new TemporarilyUnavailableException());
    try {
      const res = await navigate(url(), VALID);
      expect(expectPage(res, 503)).toContain('Temporarily unavailable');
      expect(res.headers.get('retry-after')).toBe('5');
      // A script posting FormData gets the JSON 503.
      const data = new FormData();
      data.append('name', 'Ada');
      data.append('email', 'ada@example.com');
      const script = await post(url(), data);
      expect(script.status).toBe(503);
      expect(script.headers.get('retry-after')).toBe('5');
      expect(Object.keys(script.body)).toEqual(['error']);
    } finally {
      spy.mockRestore();
    }
  });

  it('recognises a browser without Fetch Metadata by an HTML-first Accept', async () => {
    const html = await post(url(), new URLSearchParams(VALID), {
      accept: 'text/html,application/xhtml+xml,*/*;q=0.8',
    });
    expectPage(html, 200);
    const invalid = await post(url(), new URLSearchParams({}), {
      accept: 'text/html',
    });
    expectPage(invalid, 400);
  });

  it.each<[string, Record<string, string>]>([
    [
      'a fetch() (Sec-Fetch-Mode: cors)',
      { 'sec-fetch-mode': 'cors', accept: 'text/html' },
    ],
    ['an Accept naming JSON', { accept: 'text/html, application/json' }],
    ['an Accept not starting with HTML', { accept: '*/*, text/html' }],
    ['no Accept at all', {}],
  ])('keeps the JSON answers for %s', async (_what, headers) => {
    const ok = await post(url(), new URLSearchParams(VALID), headers);
    expect(ok.status).toBe(200);
    expect(ok.text).toBe(RECEIVED_JSON);
    expect(ok.headers.get('content-type')).toBe(
      'application/json; charset=utf-8',
    );
    expect(ok.headers.get('content-security-policy')).toBeNull();
    const invalid = await post(url(), new URLSearchParams({}), headers);
    expect(invalid.status).toBe(400);
    expect(invalid.text).toBe(
      '{"error":"Validation failed","errors":["name is required","email is required"]}',
    );
    const missing = await post(
      url('nope'),
      new URLSearchParams(VALID),
      headers,
    );
    expect(missing.text).toBe('{"error":"Form not found"}');
  });

  it('keeps the JSON answers for a JSON body, even when navigating', async () => {
    const res = await post(url(), JSON.stringify(VALID), {
      ...NAVIGATION_HEADERS,
      'content-type': 'application/json',
    });
    expect(res.status).toBe(200);
    expect(res.text).toBe(RECEIVED_JSON);
  });
});

describe('native form posts over the rate limit (e2e)', () => {
  let t: TestApp;
  let formId: string;

  beforeAll(async () => {
    t = await createTestApp({ env: { SUBMIT_RATE_LIMIT: '2' } });
    const { account } = await createAccount(t);
    formId = (await createForm(t, account.id)).form.id;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('explains the 429 on a page, with Retry-After and the rate-limit headers', async () => {
    const url = `${t.url}/api/submit/${formId}`;
    expectPage(await navigate(url, VALID), 200);
    expectPage(await navigate(url, VALID), 200);
    const refused = await navigate(url, VALID, { referer: REFERER });
    const text = expectPage(refused, 429);
    expect(text).toContain('Too many submissions');
    expect(text).toMatch(/Retry in \d+ seconds\./);
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(
      await t.dataSource.getRepository(Submission).countBy({ formId }),
    ).toBe(2);
    // A script over the limit (here posting FormData) still reads JSON.
    const data = new FormData();
    data.append('name', 'Ada');
    const script = await post(url, data);
    expect(script.status).toBe(429);
    expect(Object.keys(script.body)).toEqual(['error']);
  });
});
