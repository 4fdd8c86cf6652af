// Keys with control characters are refused on submit: a form without fields used to store
// `note\nView it in the dashboard: https://…` as a key, which then faked a line of the
// notification's text part. Every body type, every form; the key is named, escaped.
import { Submission } from '../../../src/submissions/submission.entity.js';
import { createAccount } from '../../factories/accounts.js';
import { createForm } from '../../factories/forms.js';
import { request } from '../../support/http.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

const FAKE = 'View it in the dashboard: https://evil.example/x';
const MESSAGE = (escaped: string) =>
  `field name "${escaped}" contains a control character (a line break, a tab…); field names must be plain text`;

describe('control characters in submitted keys (e2e)', () => {
  let t: TestApp;
  let freeForm: string;
  let contactForm: string;

  beforeAll(async () => {
    t = await createTestApp({ env: { SUBMIT_RATE_LIMIT: '100000' } });
    const { account } = await createAccount(t);
    freeForm = (await createForm(t, account.id, { fields: [] })).form.id;
    contactForm = (await createForm(t, account.id)).form.id;
  });
  afterAll(async () => {
    await t.close();
  });

  const stored = (formId: string) =>
    t.dataSource.getRepository(Submission).countBy({ formId });

  it.each([
    ['JSON', { json: { [`note\n${FAKE}`]: 'x', message: 'hi' } }],
    [
      'form-encoded',
      {
        form: { [`note\n${FAKE}`]: 'x', message: 'hi' } as Record<
          string,
          string
        >,
      },
    ],
  ])(
    'refuses a %s key with a line break on a form without fields, naming it escaped',
    async (_type, body) => {
      const answer = await request(`${t.url}/api/submit/${freeForm}`, body);
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({
        error: 'Validation failed',
        errors: [MESSAGE(`note\\n${FAKE}`)],
      });
      expect(await stored(freeForm)).toBe(0);
    },
  );

  it('refuses it in a multipart body too', async () => {
    const form = new FormData();
    form.append(`a\u2028${FAKE}`, 'x');
    form.append('message', 'hi');
    const answer = await fetch(`${t.url}/api/submit/${freeForm}`, {
      method: 'POST',
      body: form,
    });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual({
      error: 'Validation failed',
      errors: [MESSAGE(`a\\u2028${FAKE}`)],
    });
    expect(await stored(freeForm)).toBe(0);
  });

  it('refuses a control character in a key of a form with fields, and in a control key', async () => {
    const answer = await request(`${t.url}/api/submit/${contactForm}`, {
      json: {
        name: 'Ada',
        email: 'ada@example.com',
        'tab\there': 'x',
        '_sub\rject': 'y',
      },
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      error: 'Validation failed',
      errors: [MESSAGE('tab\\there'), MESSAGE('_sub\\rject')],
    });
    expect(await stored(contactForm)).toBe(0);
  });

  it('still takes plain keys, spaces and punctuation included', async () => {
    const answer = await request(`${t.url}/api/submit/${freeForm}`, {
      json: { 'Your message (optional)': 'hi', 'e-mail': 'a@b.example' },
    });
    expect(answer.status).toBe(200);
    expect(await stored(freeForm)).toBe(1);
  });
});
