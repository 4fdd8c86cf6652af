// A keyed retry of a submission whose CAPTCHA answer the first request spent: on both
// submit routes (/api/submit and the Formspree-compatible /f) the replay is decided before
// the answer would be claimed again, so the retry gets the first answer again
// (`Idempotent-Replayed: true`) instead of "already used", and one row is stored. Without
// the key, or with another body, the spent answer is refused as before.
import { Submission } from '../../../src/submissions/submission.entity.js';
import { createAccount } from '../../factories/accounts.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import { solvedAltcha } from '../../support/altcha.js';
import { request } from '../../support/http.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

const person = { name: 'Ada', email: 'ada@example.com' };
let counter = 0;
const newKey = () => `retry-${Date.now()}-${++counter}`;

describe('a keyed retry after the CAPTCHA answer was spent (e2e)', () => {
  let t: TestApp;
  let form: TestForm;

  beforeAll(async () => {
    t = await createTestApp({
      env: { ALTCHA_COST: '1', SUBMIT_RATE_LIMIT: '1000' },
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
      json: { captcha: { provider: 'altcha' } },
    });
    expect(res.status).toBe(200);
  });

  const stored = () =>
    t.dataSource.getRepository(Submission).countBy({ formId: form.form.id });

  for (const route of ['/api/submit', '/f'] as const) {
    describe(`on ${route}/:formId`, () => {
      const post = (json: unknown, key?: string) =>
        request(`${t.url}${route}/${form.form.id}`, {
          json,
          headers: key === undefined ? {} : { 'idempotency-key': key },
        });

      it('replays the first answer to a retry with the same key and body', async () => {
        const body = { ...person, altcha: await solvedAltcha(t, form.form.id) };
        const key = newKey();
        const first = await post(body, key);
        expect(first.status).toBe(200);
        expect(first.headers.get('idempotent-replayed')).toBeNull();

        const retry = await post(body, key);
        expect(retry.status).toBe(200);
        expect(retry.headers.get('idempotent-replayed')).toBe('true');
        expect(retry.headers.get('access-control-allow-origin')).toBe('*');
        expect(retry.body).toEqual(first.body);
        expect(await stored()).toBe(1);
      });

      it('still refuses the spent answer without the key (400), storing nothing more', async () => {
        const body = { ...person, altcha: await solvedAltcha(t, form.form.id) };
        const key = newKey();
        expect((await post(body, key)).status).toBe(200);
        const unkeyed = await post(body);
        expect(unkeyed.status).toBe(400);
        expect(unkeyed.headers.get('idempotent-replayed')).toBeNull();
        expect(JSON.stringify(unkeyed.body)).toContain('captcha: ');
        expect(await stored()).toBe(1);
      });

      it('refuses another body with the key (422)', async () => {
        const body = { ...person, altcha: await solvedAltcha(t, form.form.id) };
        const key = newKey();
        expect((await post(body, key)).status).toBe(200);
        const changed = await post(
          {
            ...person,
            name: 'Grace',
            altcha: await solvedAltcha(t, form.form.id),
          },
          key,
        );
        expect(changed.status).toBe(422);
        expect(changed.body.error).toBe(
          'This Idempotency-Key was already used with a different request (method, path or body)',
        );
        expect(await stored()).toBe(1);
      });
    });
  }

  it('keeps the two routes apart: the key of a /f post is another request on /api/submit (422)', async () => {
    const body = { ...person, altcha: await solvedAltcha(t, form.form.id) };
    const key = newKey();
    const onF = await request(`${t.url}/f/${form.form.id}`, {
      json: body,
      headers: { 'idempotency-key': key },
    });
    expect(onF.status).toBe(200);
    const onSubmit = await request(`${t.url}/api/submit/${form.form.id}`, {
      json: body,
      headers: { 'idempotency-key': key },
    });
    expect(onSubmit.status).toBe(422);
    expect(await stored()).toBe(1);
  });

  it('refuses a malformed key on /f (400)', async () => {
    const body = { ...person, altcha: await solvedAltcha(t, form.form.id) };
    const answer = await request(`${t.url}/f/${form.form.id}`, {
      json: body,
      headers: { 'idempotency-key': 'k'.repeat(256) },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe(
      'Idempotency-Key must be 1 to 255 printable ASCII characters',
    );
    expect(await stored()).toBe(0);
  });
});
