// ALTCHA end to end: the public challenge route (CORS, its own limit), the widget served by
// the service, a solved challenge accepted once (also after a validation error, which
// does not use it up), and every kind of bad answer refused with a 400 naming the CAPTCHA —
// quickly, never a 500.
import { Submission } from '../../../src/submissions/submission.entity.js';
import { TurnedAwayCounter, utcDay } from '../../../src/spam/turned-away.js';
import { createAccount } from '../../factories/accounts.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import {
  encodeAltcha,
  fetchChallenge,
  solve,
  solvedAltcha,
} from '../../support/altcha.js';
import { expectProblem } from '../../support/answers.js';
import { request } from '../../support/http.js';
import { NAVIGATION_HEADERS, post } from '../../support/navigation.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

const RECEIVED = { success: true, message: 'Submission received' };
const person = { name: 'Ada', email: 'ada@example.com' };

describe('ALTCHA (e2e)', () => {
  let t: TestApp;
  let form: TestForm;

  beforeAll(async () => {
    t = await createTestApp({
      env: { ALTCHA_COST: '1', SUBMIT_RATE_LIMIT: '1000', TRUST_PROXY: '1' },
    });
  });
  afterAll(async () => {
    await t?.close();
  });
  beforeEach(async () => {
    const { account } = await createAccount(t);
    form = await createForm(t, account.id);
    const res = await request(`${t.url}/api/v1/forms/${form.form.id}`, {
      method: 'PATCH',
      apiKey: form.apiKey,
      // Without the grace of a switch-on: a post without a solution is refused from the first.
      json: { captcha: { provider: 'altcha', graceUntil: null } },
    });
    expect(res.status).toBe(200);
    expect(res.body.captcha).toEqual({
      provider: 'altcha',
      siteKey: null,
      minScore: null,
      secretSet: false,
      graceUntil: null,
    });
  });

  const submitUrl = () => `${t.url}/api/submit/${form.form.id}`;
  const submit = (json: Record<string, unknown>) =>
    request(submitUrl(), { json });
  const stored = () =>
    t.dataSource
      .getRepository(Submission)
      .find({ where: { formId: form.form.id }, order: { id: 'ASC' } });
  const captchaError = (message: string) => ({
    error: 'Validation failed',
    errors: [message],
  });

  describe('the challenge route and the widget', () => {
    it('answers a signed, expiring challenge to any origin, never cached', async () => {
      const res = await request(`${submitUrl()}/challenge`, {
        headers: { origin: 'https://www.example.com' },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.body).toEqual({
        parameters: {
          algorithm: 'PBKDF2/SHA-256',
          cost: 1,
          expiresAt: expect.any(Number),
          keyLength: 32,
          keyPrefix: expect.stringMatching(/^[0-9a-f]{32}$/),
          keySignature: expect.stringMatching(/^[0-9a-f]{64}$/),
          nonce: expect.stringMatching(/^[0-9a-f]{32}$/),
          salt: expect.stringMatching(/^[0-9a-f]{32}$/),
        },
        signature: expect.stringMatching(/^[0-9a-f]{64}$/),
      });
      const inSeconds = res.body.parameters.expiresAt - Date.now() / 1000;
      expect(inSeconds).toBeGreaterThan(590);
      expect(inSeconds).toBeLessThanOrEqual(600);
    });

    it('answers 404 for an unknown form and for a form without ALTCHA', async () => {
      const unknown = await request(
        `${t.url}/api/submit/nosuchform0000000000/challenge`,
      );
      expectProblem(unknown, 404, 'Form not found');
      expect(unknown.headers.get('access-control-allow-origin')).toBe('*');
      const { account } = await createAccount(t);
      const plain = await createForm(t, account.id);
      const res = await request(
        `${t.url}/api/submit/${plain.form.id}/challenge`,
      );
      expectProblem(res, 404, 'This form does not use ALTCHA');
    });

    it('gives each address 60 challenges a minute, then 429 with Retry-After and CORS', async () => {
      const ask = () =>
        request(`${submitUrl()}/challenge`, {
          headers: { 'x-forwarded-for': '192.0.2.77' },
        });
      const answers = await Promise.all(Array.from({ length: 60 }, ask));
      expect(answers.map((a) => a.status)).toEqual(Array(60).fill(200));
      const refused = await ask();
      expect(refused.status).toBe(429);
      expect(refused.body.error).toMatch(
        /^Too many ALTCHA challenges: at most 60 a minute from one address\. Retry in \d+ seconds\.$/,
      );
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(refused.headers.get('access-control-allow-origin')).toBe('*');
      // Another address, and the submit budget, are untouched.
      const other = await request(`${submitUrl()}/challenge`, {
        headers: { 'x-forwarded-for': '192.0.2.78' },
      });
      expect(other.status).toBe(200);
    });

    it('serves the widget itself, to any origin', async () => {
      const res = await request(`${t.url}/static/altcha/altcha.js`);
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('cross-origin-resource-policy')).toBe(
        'cross-origin',
      );
      expect(res.headers.get('content-type')).toBe(
        'text/javascript; charset=utf-8',
      );
      expect(res.text).toContain('altcha-widget');
      expect(res.text).toContain('PBKDF2/SHA-256');
      const again = await request(`${t.url}/static/altcha/altcha.js`, {
        headers: { 'if-none-match': res.headers.get('etag')! },
      });
      expect(again.status).toBe(304);
    });
  });

  describe('submitting', () => {
    it('accepts a solved challenge once, and never stores the answer', async () => {
      const altcha = await solve(await fetchChallenge(t.url, form.form.id));
      const first = await submit({ ...person, altcha });
      expect(first.status).toBe(200);
      expect(first.body).toEqual(RECEIVED);
      const replay = await submit({ ...person, altcha });
      expect(replay.status).toBe(400);
      expect(replay.body).toEqual(
        captchaError(
          'captcha: this ALTCHA solution was already used: solve a new one',
        ),
      );
      const rows = await stored();
      expect(rows).toHaveLength(1);
      expect(rows[0].data).toEqual(person);
      expect([rows[0].spam, rows[0].spamReasons]).toEqual([false, null]);
    });

    it('lets racing replays of one answer through once', async () => {
      const altcha = await solvedAltcha(t, form.form.id);
      const answers = await Promise.all(
        Array.from({ length: 10 }, () => submit({ ...person, altcha })),
      );
      expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
      expect(answers.filter((a) => a.status === 400)).toHaveLength(9);
      expect(await stored()).toHaveLength(1);
    });

    it('checks the fields first: a validation error does not use the answer up', async () => {
      const altcha = await solvedAltcha(t, form.form.id);
      const invalid = await submit({ name: 'Ada', email: 'nope', altcha });
      expectProblem(invalid, 400, {
        error: 'Validation failed',
        errors: ['email must be a valid email address'],
      });
      const fixed = await submit({ ...person, altcha });
      expect(fixed.status).toBe(200);
      expect(await stored()).toHaveLength(1);
    });

    it('accepts the answer from a form post and multipart too', async () => {
      const altcha = await solvedAltcha(t, form.form.id);
      const res = await request(submitUrl(), {
        form: { ...person, altcha },
      });
      expect(res.status).toBe(200);
      const body = new FormData();
      body.set('name', 'Multi');
      body.set('email', 'multi@example.com');
      body.set('altcha', await solvedAltcha(t, form.form.id));
      const multipart = await fetch(submitUrl(), { method: 'POST', body });
      expect(multipart.status).toBe(200);
      expect((await stored()).map((r) => r.data.name)).toEqual([
        'Ada',
        'Multi',
      ]);
    });

    it('refuses a post without an answer, and counts it as turned away', async () => {
      const before = await t.app
        .get(TurnedAwayCounter)
        .since(form.form.id, utcDay(Date.now()));
      const res = await submit(person);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(
        captchaError(
          'captcha: no ALTCHA solution was sent (the "altcha" field is missing)',
        ),
      );
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      const after = await t.app
        .get(TurnedAwayCounter)
        .since(form.form.id, utcDay(Date.now()));
      expect(after).toEqual({
        honeypot: before.honeypot,
        captcha: before.captcha + 1,
      });
      expect(await stored()).toEqual([]);
    });

    it("refuses another form's answer, a tampered one and an expired one", async () => {
      const { account } = await createAccount(t);
      const other = await createForm(t, account.id);
      const foreign = await submit({
        ...person,
        altcha: await solvedAltcha(t, other.form.id),
      });
      expect(foreign.status).toBe(400);
      expect(foreign.body).toEqual(
        captchaError(
          'captcha: the ALTCHA solution is not valid: solve a new one',
        ),
      );

      const good = JSON.parse(
        Buffer.from(await solvedAltcha(t, form.form.id), 'base64').toString(),
      );
      const tampered = structuredClone(good);
      tampered.solution.derivedKey = 'ab'.repeat(32);
      const wrongKey = await submit({
        ...person,
        altcha: encodeAltcha(tampered),
      });
      expect(wrongKey.body).toEqual(
        captchaError(
          'captcha: the ALTCHA solution is not valid: solve a new one',
        ),
      );
      const longer = structuredClone(good);
      longer.challenge.parameters.expiresAt += 3600;
      const stretched = await submit({
        ...person,
        altcha: encodeAltcha(longer),
      });
      expect(stretched.body).toEqual(
        captchaError(
          'captcha: the ALTCHA solution is not valid: solve a new one',
        ),
      );

      const expired = await submit({
        ...person,
        altcha: await solvedAltcha(t, form.form.id, Date.now() - 601_000),
      });
      expect(expired.status).toBe(400);
      expect(expired.body).toEqual(
        captchaError(
          'captcha: the ALTCHA challenge has expired: solve a new one',
        ),
      );
      // The untouched answer still works: refusals used nothing up.
      expect(
        (await submit({ ...person, altcha: encodeAltcha(good) })).status,
      ).toBe(200);
      expect(await stored()).toHaveLength(1);
    });

    it('refuses malformed answers at once with a 400, never a 500', async () => {
      const good = JSON.parse(
        Buffer.from(await solvedAltcha(t, form.form.id), 'base64').toString(),
      );
      const sha = structuredClone(good);
      sha.challenge.parameters.algorithm = 'SHA-256';
      const huge = structuredClone(good);
      huge.solution.counter = 1e300;
      const hugeKey = structuredClone(good);
      hugeKey.solution.derivedKey = 'a'.repeat(3000);
      const extra = structuredClone(good);
      extra.challenge.parameters.data = { x: 1 };
      const malformed: unknown[] = [
        'not base64 at all!',
        Buffer.from('{"challenge":').toString('base64'),
        Buffer.from('[1,2,3]').toString('base64'),
        encodeAltcha({ challenge: null, solution: null, test: true }),
        encodeAltcha(sha),
        encodeAltcha(huge),
        encodeAltcha(hugeKey),
        encodeAltcha(extra),
        encodeAltcha({ ...good, solution: { counter: -1, derivedKey: 'ab' } }),
        'A'.repeat(100_000),
        ['x', 'y'],
        { nested: true },
        42,
      ];
      const started = performance.now();
      for (const altcha of malformed) {
        const res = await submit({ ...person, altcha });
        expect(res.status, JSON.stringify(altcha).slice(0, 80)).toBe(400);
        expect(res.body).toEqual(
          captchaError('captcha: the ALTCHA solution is malformed'),
        );
      }
      expect(performance.now() - started).toBeLessThan(5000);
      expect(await stored()).toEqual([]);
      const log = t.logs.filter((line) => line.includes('"level":50'));
      expect(log).toEqual([]);
    });

    it('shows a browser that posted natively the error page, status 400', async () => {
      const res = await post(submitUrl(), new URLSearchParams(person), {
        ...NAVIGATION_HEADERS,
        referer: 'https://www.example.com/contact',
      });
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.text).toContain(
        'captcha: no ALTCHA solution was sent (the &quot;altcha&quot; field is missing)',
      );
    });

    it('keeps the honeypot as it is: the same 200, nothing stored, counted', async () => {
      const counter = t.app.get(TurnedAwayCounter);
      const before = await counter.since(form.form.id, utcDay(Date.now()));
      const res = await submit({ ...person, _honeypot: 'bot' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(RECEIVED);
      expect(await stored()).toEqual([]);
      expect(await counter.since(form.form.id, utcDay(Date.now()))).toEqual({
        honeypot: before.honeypot + 1,
        captcha: before.captcha,
      });
    });
  });
});
