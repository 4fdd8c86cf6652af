// The submit rate limit as @nestjs/throttler's guard on both submit controllers: one budget
// per client for /api/submit/:formId and /f/:formId together, every rate-limit header on
// every answer, CORS on the 429, preflights not counted, the counters shared through
// Redis by every instance, and a refusal that stays cheap — a multipart body is read only
// after the guard let the request through, so a client over its limit is answered before
// it has sent much of its body.
import { connect, type Socket } from 'node:net';
import { readdir } from 'node:fs/promises';
import type { FieldDefinition } from '../../../src/forms/form.entity.js';
import { Submission } from '../../../src/submissions/submission.entity.js';
import { createAccount } from '../../factories/accounts.js';
import { CONTACT_FIELDS, createForm } from '../../factories/forms.js';
import { BOUNDARY, MULTIPART_TYPE } from '../../support/files.js';
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

const LIMIT = 4;
const VALID = { name: 'Ada', email: 'ada@example.com' };
const TOO_MANY =
  /^Too many submissions: at most 4 per 60 seconds from one address\. Retry in \d+ seconds\.$/;
const UPLOAD_FIELDS: FieldDefinition[] = [
  { id: 'name', type: 'text', label: 'Name' },
  { id: 'cv', type: 'file', label: 'CV' },
];

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

/** Every rate-limit header, with `left` remaining, and CORS for any origin. */
function expectRateLimitHeaders(headers: Headers, left: number): void {
  expect(headers.get('access-control-allow-origin')).toBe('*');
  expect(headers.get('x-ratelimit-limit')).toBe(String(LIMIT));
  expect(headers.get('x-ratelimit-remaining')).toBe(String(left));
  const reset = Number(headers.get('x-ratelimit-reset'));
  expect(reset).toBeGreaterThanOrEqual(1);
  expect(reset).toBeLessThanOrEqual(60);
  expect(headers.get('ratelimit-policy')).toBe(`"submit";q=${LIMIT};w=60`);
  expect(headers.get('ratelimit')).toBe(`"submit";r=${left};t=${reset}`);
}

function expectRefused(answer: Answer, formspree: boolean): void {
  expect(answer.status).toBe(429);
  expectRateLimitHeaders(answer.headers, 0);
  const retryAfter = answer.headers.get('retry-after');
  expect(retryAfter).toBe(answer.headers.get('x-ratelimit-reset'));
  const error: unknown = answer.body.error;
  expect(error).toMatch(TOO_MANY);
  expect(error).toContain(`Retry in ${retryAfter} seconds.`);
  expect(answer.body).toEqual(
    formspree ? { error, errors: [{ message: error }] } : { error },
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
    expectRateLimitHeaders(accepted.headers, 3);

    const invalid = await post(client, formspreeUrl(), {
      json: { name: 'Ada' },
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({
      error: 'Validation failed',
      errors: [
        {
          field: 'email',
          code: 'REQUIRED_FIELD_MISSING',
          message: 'email is required',
        },
      ],
    });
    expectRateLimitHeaders(invalid.headers, 2);

    const unknown = await post(client, formspreeUrl('no-such-form'), {
      json: VALID,
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({
      error: 'Form not found',
      errors: [{ code: 'FORM_NOT_FOUND', message: 'Form not found' }],
    });
    expectRateLimitHeaders(unknown.headers, 1);

    const lastOne = await post(client, submitUrl('no-such-form'), {
      json: VALID,
    });
    expect(lastOne.status).toBe(404);
    expect(lastOne.body).toEqual({ error: 'Form not found' });
    expectRateLimitHeaders(lastOne.headers, 0);

    expectRefused(await post(client, formspreeUrl(), { json: VALID }), true);
    expectRefused(await post(client, submitUrl(), { json: VALID }), false);
    expect(await stored(client)).toBe(1);

    // Another address has a budget of its own.
    const other = await post('127.0.0.22', formspreeUrl(), { json: VALID });
    expect(other.status).toBe(200);
    expectRateLimitHeaders(other.headers, 3);
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
    expectRateLimitHeaders(first.headers, 3);
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
      expectRateLimitHeaders(answer.headers, left);
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
      error: expect.stringMatching(TOO_MANY) as unknown,
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
    expectRateLimitHeaders(spent.headers, 3);
    const tooLarge = await post(client, submitUrl(), {
      body: `${textParts(VALID)}${'x'.repeat(9 * 1024 * 1024)}`,
      type: MULTIPART_TYPE,
    });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body).toEqual({ error: 'Request body is too large' });
    expectRateLimitHeaders(tooLarge.headers, 3);
    const next = await post(client, submitUrl(), { json: VALID });
    expectRateLimitHeaders(next.headers, 2);
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
        expectRateLimitHeaders(answer.headers, LIMIT - 1 - i);
      });
      expectRefused(answers[LIMIT], false);
      expectRefused(answers[LIMIT + 1], true);
      expect(
        await a.dataSource
          .getRepository(Submission)
          .countBy({ formId, ip: client }),
      ).toBe(LIMIT);
    });
  },
);
