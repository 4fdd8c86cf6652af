// The submit rate limit: SUBMIT_RATE_LIMIT submissions per SUBMIT_RATE_WINDOW_SECONDS per
// client IP (defaults 10 / 60), @nestjs/throttler's guard on both submit controllers — one
// budget per client for /api/submit/:formId and /f/:formId together — with every rate-limit
// header on every answer, CORS on the 429, preflights not counted, TRUST_PROXY respected,
// the counters shared through Redis by every instance, and a refusal that stays cheap — a
// multipart body is read only after the guard let the request through, so a client over
// its limit is answered before it has sent much of its body. What a refusal costs the
// server is measured in submit-refusal-cost.e2e-spec.ts.
import { connect, type Socket } from 'node:net';
import { readdir } from 'node:fs/promises';
import type { FieldDefinition } from '../../../src/forms/form.entity.js';
import { Submission } from '../../../src/submissions/submission.entity.js';
import { createAccount } from '../../factories/accounts.js';
import { CONTACT_FIELDS, createForm } from '../../factories/forms.js';
import { BOUNDARY, MULTIPART_TYPE } from '../../support/files.js';
import { expectProblem } from '../../support/answers.js';
import { request, type HttpResponse } from '../../support/http.js';
import {
  closeLoopbackClients,
  fetchFrom,
} from '../../support/loopback-client.js';
import {
  sharedDatabase,
  withKeyPrefix,
} from '../../support/shared-instances.js';
import {
  describeWhen,
  NEEDS_REDIS,
  TEST_REDIS_URL,
} from '../../support/skips.js';
import {
  createTestApp,
  uploadsRoot,
  type TestApp,
} from '../../support/test-app.js';
import type { TestDatabase } from '../../support/test-database.js';

/** The limit the specs of the guard on both routes set (the default is 10). */
const LIMIT = 4;
const VALID = { name: 'Ada', email: 'ada@example.com' };
const RECEIVED = { success: true, message: 'Submission received' };
const UPLOAD_FIELDS: FieldDefinition[] = [
  { id: 'name', type: 'text', label: 'Name' },
  { id: 'cv', type: 'file', label: 'CV' },
];

/** The refusal's sentence for a limit of `limit` a minute. */
const tooMany = (limit: number) =>
  new RegExp(
    `^Too many submissions: at most ${limit} per 60 seconds from one address\\. Retry in \\d+ seconds\\.$`,
  );

function remaining(res: HttpResponse): number {
  return Number(res.headers.get('x-ratelimit-remaining'));
}

interface Answer {
  status: number;
  headers: Headers;
  // Bodies are read loosely, as in test/support/http.ts.
  // oxlint-disable-next-line typescript/no-explicit-any
  body: any;
}

/** A POST from the loopback address `from` (each test is a client of its own). */
async function post(
  from: string,
  url: string,
  init: { json?: unknown; body?: string; type?: string } = {},
): Promise<Answer> {
  const response = await fetchFrom(from)(url, {
    method: 'POST',
    headers: { 'content-type': init.type ?? 'application/json' },
    body: init.json === undefined ? init.body : JSON.stringify(init.json),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text === '' ? undefined : JSON.parse(text),
  };
}

/** Every rate-limit header of a `limit`, with `left` remaining, and CORS for any origin. */
function expectRateLimitHeaders(
  headers: Headers,
  limit: number,
  left: number,
): void {
  expect(headers.get('access-control-allow-origin')).toBe('*');
  expect(headers.get('x-ratelimit-limit')).toBe(String(limit));
  expect(headers.get('x-ratelimit-remaining')).toBe(String(left));
  const reset = Number(headers.get('x-ratelimit-reset'));
  expect(reset).toBeGreaterThanOrEqual(1);
  expect(reset).toBeLessThanOrEqual(60);
  expect(headers.get('ratelimit-policy')).toBe(`"submit";q=${limit};w=60`);
  expect(headers.get('ratelimit')).toBe(`"submit";r=${left};t=${reset}`);
}

/** A 429 of a `limit`: every header, Retry-After as the reset, the body in the route's shape. */
function expectRefused(
  answer: Answer,
  limit: number,
  shape: 'submit' | 'formspree' = 'submit',
): void {
  expect(answer.status).toBe(429);
  expectRateLimitHeaders(answer.headers, limit, 0);
  const retryAfter = Number(answer.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(retryAfter).toBe(Number(answer.headers.get('x-ratelimit-reset')));
  const error: unknown = answer.body.error;
  expect(error).toMatch(tooMany(limit));
  expect(error).toContain(`Retry in ${retryAfter} seconds.`);
  expect(answer.body).toEqual(
    shape === 'formspree' ? { error, errors: [{ message: error }] } : { error },
  );
}

/** A text-only multipart body. */
function textParts(values: Record<string, string>): string {
  return (
    Object.entries(values)
      .map(
        ([name, value]) =>
          `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      )
      .join('') + `--${BOUNDARY}--\r\n`
  );
}

interface SlowPost {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Bytes of the body written when the answer's first byte arrived. */
  sentBeforeAnswer: number;
}

/**
 * A multipart post of `declared` bytes (one file part, then filler) written 16 KiB every
 * 10 ms from `from` over a raw socket, as a slow client uploading a large file would; it
 * stops writing as soon as an answer arrives, reads it whole and hangs up.
 */
function slowMultipartPost(
  port: number,
  path: string,
  declared: number,
  from: string,
): Promise<SlowPost> {
  const head =
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n` +
    `Content-Type: ${MULTIPART_TYPE}\r\nContent-Length: ${declared}\r\n\r\n`;
  const partHead = Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="cv"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const filler = Buffer.alloc(16 * 1024, 0x61);
  return new Promise((resolve, reject) => {
    const socket: Socket = connect({
      host: '127.0.0.1',
      port,
      localAddress: from,
    });
    let sent = 0;
    let sentBeforeAnswer = -1;
    let timer: NodeJS.Timeout | undefined;
    let received = Buffer.alloc(0);
    const writeMore = () => {
      if (sentBeforeAnswer >= 0 || sent >= declared) return;
      const chunk = (
        sent === 0 ? Buffer.concat([partHead, filler]) : filler
      ).subarray(0, declared - sent);
      socket.write(chunk);
      sent += chunk.length;
      timer = setTimeout(writeMore, 10);
    };
    socket.once('connect', () => {
      socket.write(head);
      writeMore();
    });
    socket.on('data', (data: Buffer) => {
      if (sentBeforeAnswer < 0) {
        sentBeforeAnswer = sent;
        clearTimeout(timer);
      }
      received = Buffer.concat([received, data]);
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) return;
      const [statusLine, ...lines] = received
        .subarray(0, end)
        .toString('latin1')
        .split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line
          .slice(colon + 1)
          .trim();
      }
      const body = received.subarray(end + 4);
      if (body.length < Number(headers['content-length'])) return;
      socket.destroy();
      resolve({
        status: Number(statusLine.split(' ')[1]),
        headers,
        body: body.toString('utf8'),
        sentBeforeAnswer,
      });
    });
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

describe('submit rate limit (e2e)', () => {
  describe('without TRUST_PROXY (the default)', () => {
    let t: TestApp;
    let formId: string;

    beforeAll(async () => {
      t = await createTestApp();
      const { account } = await createAccount(t);
      formId = (await createForm(t, account.id)).form.id;
    });
    afterAll(async () => {
      await t.close();
    });

    it('refuses the 11th request with 429 and Retry-After, even for an unknown form, and rotating X-Forwarded-For does not help', async () => {
      const url = `${t.url}/api/submit/${formId}`;
      const seen: number[] = [];
      for (let i = 0; i < 10; i += 1) {
        const res = await request(url, {
          json: VALID,
          headers: { 'x-forwarded-for': `198.51.100.${i + 1}` },
        });
        expect(res.status).toBe(200);
        expect(res.body).toEqual(RECEIVED);
        expectRateLimitHeaders(res.headers, 10, 9 - i);
        seen.push(remaining(res));
      }
      expect(seen).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);

      const eleventh = await request(url, {
        json: VALID,
        headers: { 'x-forwarded-for': '203.0.113.99' },
      });
      expectRefused(eleventh, 10);

      // The limiter runs before the form lookup: no 404 for an unknown id.
      const unknown = await request(`${t.url}/api/submit/no-such-form`, {
        json: VALID,
      });
      expectRefused(unknown, 10);

      const stored = await t.dataSource
        .getRepository(Submission)
        .findBy({ formId });
      expect(stored).toHaveLength(10);
      expect(new Set(stored.map((row) => row.ip))).toEqual(
        new Set(['127.0.0.1']),
      );
    });

    it('still answers the preflight of a client over its limit', async () => {
      const res = await request(`${t.url}/api/submit/${formId}`, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://site.example',
          'access-control-request-method': 'POST',
        },
      });
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
    });
  });

  describe('behind a trusted proxy (TRUST_PROXY=127.0.0.1)', () => {
    let t: TestApp;
    let formId: string;

    beforeAll(async () => {
      t = await createTestApp({ env: { TRUST_PROXY: '127.0.0.1' } });
      const { account } = await createAccount(t);
      formId = (await createForm(t, account.id)).form.id;
    });
    afterAll(async () => {
      await t.close();
    });

    const submit = (
      client: string,
      options: Parameters<typeof request>[1] = { json: VALID },
    ) =>
      request(`${t.url}/api/submit/${formId}`, {
        ...options,
        headers: { ...options.headers, 'x-forwarded-for': client },
      });

    async function spend(client: string, times: number): Promise<void> {
      for (let i = 0; i < times; i += 1) {
        const res = await submit(client);
        expect(res.status).toBe(200);
      }
    }

    it('counts each client address separately and stores the client address', async () => {
      await spend('192.0.2.10', 10);
      expectRefused(await submit('192.0.2.10'), 10);
      const other = await submit('192.0.2.11');
      expect(other.status).toBe(200);
      expectRateLimitHeaders(other.headers, 10, 9);
      const rows = await t.dataSource
        .getRepository(Submission)
        .findBy({ formId, ip: '192.0.2.11' });
      expect(rows).toHaveLength(1);
    });

    it('counts ::ffff:a.b.c.d as a.b.c.d', async () => {
      await spend('::ffff:192.0.2.20', 5);
      await spend('192.0.2.20', 5);
      expectRefused(await submit('::ffff:192.0.2.20'), 10);
      const rows = await t.dataSource
        .getRepository(Submission)
        .findBy({ formId, ip: '192.0.2.20' });
      expect(rows).toHaveLength(10);
    });

    it('gives one budget to a whole IPv6 /64', async () => {
      for (let i = 1; i <= 10; i += 1) {
        const res = await submit(`2001:db8:aa:bb::${i.toString(16)}`);
        expect(res.status).toBe(200);
        expectRateLimitHeaders(res.headers, 10, 10 - i);
      }
      expectRefused(await submit('2001:db8:aa:bb:ffff:1:2:3'), 10);
      const neighbour = await submit('2001:db8:aa:bc::1');
      expect(neighbour.status).toBe(200);
      expectRateLimitHeaders(neighbour.headers, 10, 9);
    });

    it('does not count CORS preflights', async () => {
      for (let i = 0; i < 12; i += 1) {
        const res = await submit('192.0.2.30', {
          method: 'OPTIONS',
          headers: {
            origin: 'https://site.example',
            'access-control-request-method': 'POST',
            'access-control-request-headers': 'content-type',
          },
        });
        expect(res.status).toBe(204);
      }
      const res = await submit('192.0.2.30');
      expect(res.status).toBe(200);
      expectRateLimitHeaders(res.headers, 10, 9);
    });

    it('puts the headers on 404, 400, 413 and 415 too; refused bodies spend nothing', async () => {
      const client = '192.0.2.40';
      const notFound = await request(`${t.url}/api/submit/no-such-form`, {
        json: VALID,
        headers: { 'x-forwarded-for': client },
      });
      expectProblem(notFound, 404, 'Form not found');
      expectRateLimitHeaders(notFound.headers, 10, 9);

      const invalid = await submit(client, { json: { name: 'A' } });
      expect(invalid.status).toBe(400);
      expectRateLimitHeaders(invalid.headers, 10, 8);

      const tooLarge = await submit(client, {
        json: { ...VALID, message: 'x'.repeat(200_000) },
      });
      expectProblem(tooLarge, 413, 'Request body is too large');
      expectRateLimitHeaders(tooLarge.headers, 10, 8);

      const unsupported = await submit(client, {
        body: 'name=A',
        headers: { 'content-type': 'text/plain' },
      });
      expect(unsupported.status).toBe(415);
      expectRateLimitHeaders(unsupported.headers, 10, 8);

      const accepted = await submit(client);
      expect(accepted.status).toBe(200);
      expectRateLimitHeaders(accepted.headers, 10, 7);
    });
  });

  describe('a short window', () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await createTestApp({
        env: { SUBMIT_RATE_LIMIT: '2', SUBMIT_RATE_WINDOW_SECONDS: '1' },
      });
    });
    afterAll(async () => {
      await t.close();
    });

    it('resets the count when the window is over', async () => {
      const { account } = await createAccount(t);
      const { form } = await createForm(t, account.id);
      const url = `${t.url}/api/submit/${form.id}`;
      expect((await request(url, { json: VALID })).status).toBe(200);
      expect((await request(url, { json: VALID })).status).toBe(200);
      const refused = await request(url, { json: VALID });
      expect(refused.status).toBe(429);
      expect(refused.headers.get('ratelimit-policy')).toBe('"submit";q=2;w=1');
      expect(refused.headers.get('retry-after')).toBe('1');
      // Waiting is the behaviour under test: Retry-After says how long.
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const again = await request(url, { json: VALID });
      expect(again.status).toBe(200);
      expect(again.headers.get('x-ratelimit-remaining')).toBe('1');
    });
  });
});

describe('the submit routes behind ThrottlerGuard (e2e)', () => {
  let t: TestApp;
  let formId: string;
  let uploadFormId: string;

  beforeAll(async () => {
    t = await createTestApp({
      env: {
        SUBMIT_RATE_LIMIT: String(LIMIT),
        UPLOAD_BODY_LIMIT: String(8 * 1024 * 1024),
      },
    });
    const { account } = await createAccount(t);
    formId = (await createForm(t, account.id)).form.id;
    uploadFormId = (
      await createForm(t, account.id, { name: 'Jobs', fields: UPLOAD_FIELDS })
    ).form.id;
  });
  afterAll(async () => {
    closeLoopbackClients();
    await t?.close();
  });

  const submitUrl = (id = formId) => `${t.url}/api/submit/${id}`;
  const formspreeUrl = (id = formId) => `${t.url}/f/${id}`;
  const stored = (from: string) =>
    t.dataSource.getRepository(Submission).countBy({ formId, ip: from });

  it('counts /api/submit and /f in one budget, with every header on 200, 400, 404 and the 429 of both', async () => {
    const client = '127.0.0.21';
    const accepted = await post(client, submitUrl(), { json: VALID });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toEqual({
      success: true,
      message: 'Submission received',
    });
    expectRateLimitHeaders(accepted.headers, LIMIT, 3);

    const invalid = await post(client, formspreeUrl(), {
      json: { name: 'Ada' },
    });
    expectProblem(invalid, 400, {
      error: 'Validation failed',
      errors: [
        {
          field: 'email',
          code: 'REQUIRED_FIELD_MISSING',
          message: 'email is required',
        },
      ],
    });
    expectRateLimitHeaders(invalid.headers, LIMIT, 2);

    const unknown = await post(client, formspreeUrl('no-such-form'), {
      json: VALID,
    });
    expectProblem(unknown, 404, {
      error: 'Form not found',
      errors: [{ code: 'FORM_NOT_FOUND', message: 'Form not found' }],
    });
    expectRateLimitHeaders(unknown.headers, LIMIT, 1);

    const lastOne = await post(client, submitUrl('no-such-form'), {
      json: VALID,
    });
    expectProblem(lastOne, 404, 'Form not found');
    expectRateLimitHeaders(lastOne.headers, LIMIT, 0);

    expectRefused(
      await post(client, formspreeUrl(), { json: VALID }),
      LIMIT,
      'formspree',
    );
    expectRefused(await post(client, submitUrl(), { json: VALID }), LIMIT);
    expect(await stored(client)).toBe(1);

    // Another address has a budget of its own.
    const other = await post('127.0.0.22', formspreeUrl(), { json: VALID });
    expect(other.status).toBe(200);
    expectRateLimitHeaders(other.headers, LIMIT, 3);
    expect(await stored('127.0.0.22')).toBe(1);
  });

  it('does not count the preflights of either route', async () => {
    const client = '127.0.0.23';
    for (const url of [submitUrl(), formspreeUrl()]) {
      for (let i = 0; i < LIMIT + 2; i += 1) {
        const preflight = await fetchFrom(client)(url, {
          method: 'OPTIONS',
          headers: {
            origin: 'https://site.example',
            'access-control-request-method': 'POST',
            'access-control-request-headers': 'content-type',
          },
        });
        expect(preflight.status).toBe(204);
        expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
        expect(preflight.headers.get('x-ratelimit-limit')).toBeNull();
      }
    }
    const first = await post(client, formspreeUrl(), { json: VALID });
    expect(first.status).toBe(200);
    expectRateLimitHeaders(first.headers, LIMIT, 3);
  });

  it('reads a multipart body once the guard let it through, on both routes', async () => {
    const client = '127.0.0.25';
    for (const [url, left] of [
      [submitUrl(), 3],
      [formspreeUrl(), 2],
    ] as const) {
      const answer = await post(client, url, {
        body: textParts(VALID),
        type: MULTIPART_TYPE,
      });
      expect(answer.status).toBe(200);
      expectRateLimitHeaders(answer.headers, LIMIT, left);
    }
    const rows = await t.dataSource
      .getRepository(Submission)
      .findBy({ formId, ip: client });
    expect(rows.map((row) => row.data)).toEqual([VALID, VALID]);
  });

  it('answers a 5 MB multipart post over the limit with 429 before the client has sent 1 MB of it', async () => {
    const client = '127.0.0.24';
    for (let i = 0; i < LIMIT; i += 1) {
      const spent = await post(client, submitUrl(uploadFormId), {
        body: textParts({ name: `Ada ${i}` }),
        type: MULTIPART_TYPE,
      });
      expect(spent.status).toBe(200);
    }
    const filesBefore = await readdir(uploadsRoot(t), {
      recursive: true,
    }).catch(() => []);

    const refused = await slowMultipartPost(
      Number(new URL(t.url).port),
      `/api/submit/${uploadFormId}`,
      5 * 1024 * 1024,
      client,
    );
    expect(refused.status).toBe(429);
    expect(refused.sentBeforeAnswer).toBeGreaterThan(0);
    expect(refused.sentBeforeAnswer).toBeLessThan(1024 * 1024);
    const reset = refused.headers['x-ratelimit-reset'];
    expect(refused.headers).toMatchObject({
      'access-control-allow-origin': '*',
      'x-ratelimit-limit': String(LIMIT),
      'x-ratelimit-remaining': '0',
      'ratelimit-policy': `"submit";q=${LIMIT};w=60`,
      ratelimit: `"submit";r=0;t=${reset}`,
      'retry-after': reset,
    });
    expect(refused.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(refused.body)).toEqual({
      error: expect.stringMatching(tooMany(LIMIT)) as unknown,
    });
    // Nothing of it was stored: no file, no row.
    expect(
      await readdir(uploadsRoot(t), { recursive: true }).catch(() => []),
    ).toEqual(filesBefore);
    expect(
      await t.dataSource
        .getRepository(Submission)
        .countBy({ formId: uploadFormId, ip: client }),
    ).toBe(LIMIT);
  });

  it('refuses a multipart body declared larger than any form takes before the guard, spending nothing', async () => {
    const client = '127.0.0.26';
    const spent = await post(client, submitUrl(), { json: VALID });
    expectRateLimitHeaders(spent.headers, LIMIT, 3);
    const tooLarge = await post(client, submitUrl(), {
      body: `${textParts(VALID)}${'x'.repeat(9 * 1024 * 1024)}`,
      type: MULTIPART_TYPE,
    });
    expectProblem(tooLarge, 413, 'Request body is too large');
    expectRateLimitHeaders(tooLarge.headers, LIMIT, 3);
    const next = await post(client, submitUrl(), { json: VALID });
    expectRateLimitHeaders(next.headers, LIMIT, 2);
  });
});

describe('one rate-limit budget for /api/submit and /f (e2e)', () => {
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

  it('counts both routes together and answers 429 in each shape', async () => {
    const first = await request(`${t.url}/api/submit/${formId}`, {
      json: VALID,
    });
    expect(first.status).toBe(200);
    const second = await request(`${t.url}/f/${formId}`, { json: VALID });
    expect(second.status).toBe(200);
    expect(second.headers.get('x-ratelimit-remaining')).toBe('0');

    const limited = await request(`${t.url}/f/${formId}`, { json: VALID });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('access-control-allow-origin')).toBe('*');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.body).toEqual({
      error: expect.stringMatching(/^Too many submissions/),
      errors: [{ message: limited.body.error }],
    });
    const classic = await request(`${t.url}/api/submit/${formId}`, {
      json: VALID,
    });
    expect(classic.status).toBe(429);
    expect(Object.keys(classic.body)).toEqual(['error']);
    expect(
      await t.dataSource.getRepository(Submission).countBy({ formId }),
    ).toBe(2);
  });
});

describeWhen(Boolean(TEST_REDIS_URL), NEEDS_REDIS)(
  'the submit guard counting in Redis (e2e)',
  () => {
    let database: TestDatabase;
    let a: TestApp;
    let b: TestApp;
    let formId: string;

    beforeAll(async () => {
      database = await sharedDatabase();
      const env = {
        REDIS_URL: withKeyPrefix(TEST_REDIS_URL!),
        SUBMIT_RATE_LIMIT: String(LIMIT),
      };
      a = await createTestApp({ database, env });
      b = await createTestApp({ database, env });
      const { account } = await createAccount(a);
      formId = (await createForm(a, account.id, { fields: CONTACT_FIELDS }))
        .form.id;
    });
    afterAll(async () => {
      closeLoopbackClients();
      await a?.close();
      await b?.close();
      await database?.drop();
    });

    it('gives one budget to a client of two instances, across both routes', async () => {
      const client = '127.0.0.31';
      const answers: Answer[] = [];
      for (let i = 0; i < LIMIT + 2; i += 1) {
        const url =
          i % 2 === 0
            ? `${a.url}/api/submit/${formId}`
            : `${b.url}/f/${formId}`;
        answers.push(await post(client, url, { json: VALID }));
      }
      expect(answers.map((answer) => answer.status)).toEqual([
        200, 200, 200, 200, 429, 429,
      ]);
      answers.slice(0, LIMIT).forEach((answer, i) => {
        expectRateLimitHeaders(answer.headers, LIMIT, LIMIT - 1 - i);
      });
      expectRefused(answers[LIMIT], LIMIT);
      expectRefused(answers[LIMIT + 1], LIMIT, 'formspree');
      expect(
        await a.dataSource
          .getRepository(Submission)
          .countBy({ formId, ip: client }),
      ).toBe(LIMIT);
    });
  },
);
