// Formspree's own client library, @formspree/core 4, pointed at this service
// (`submitForm(id, data, {endpoint})` posts to `<endpoint>/f/<id>`): what it makes of our
// answers — success, field errors by code, form errors by code — and what was stored.
import { createClient, type SubmissionResult } from '@formspree/core';
import { Submission } from '../../../src/submissions/submission.entity.js';
import { createAccount, type TestAccount } from '../../factories/accounts.js';
import { CONTACT_FIELDS, createForm } from '../../factories/forms.js';
import { createDomain } from '../../factories/domains.js';
import { request } from '../../support/http.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

describe('@formspree/core against /f/:formId (e2e)', () => {
  let t: TestApp;
  let owner: TestAccount;
  let formId: string;
  const client = createClient();

  beforeAll(async () => {
    t = await createTestApp({ env: { SUBMIT_RATE_LIMIT: '100000' } });
    owner = await createAccount(t);
    formId = (await createForm(t, owner.account.id)).form.id;
  });
  afterAll(async () => {
    await t?.close();
  });

  const rows = (id = formId) =>
    t.dataSource
      .getRepository(Submission)
      .find({ where: { formId: id }, order: { id: 'ASC' } });

  const submit = (
    data: Record<string, string> | FormData,
    id = formId,
  ): Promise<SubmissionResult> =>
    client.submitForm(id, data, { endpoint: t.url });

  function fieldCodes(result: SubmissionResult) {
    if (result.kind !== 'error') throw new Error('expected an error');
    return Object.fromEntries(
      result
        .getAllFieldErrors()
        .map(([field, errors]) => [field, errors.map((e) => e.code)]),
    );
  }

  function formErrors(result: SubmissionResult) {
    if (result.kind !== 'error') throw new Error('expected an error');
    return result.getFormErrors();
  }

  it('submits an object: success, next is the thank-you page, control fields not stored', async () => {
    const before = (await rows()).length;
    const result = await submit({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      message: 'Hello from @formspree/core',
      _gotcha: '',
      _subject: 'A subject',
      _replyto: 'reply@example.com',
      _next: 'https://evil.example/phish',
      _cc: 'cc@example.com',
      _language: 'fr',
    });
    expect(result).toEqual({
      kind: 'success',
      next: `${t.config.publicUrl}/f/${formId}/thanks`,
    });
    const stored = await rows();
    expect(stored.length).toBe(before + 1);
    expect(stored.at(-1)?.data).toEqual({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      message: 'Hello from @formspree/core',
    });
    expect(stored.at(-1)?.spam).toBe(false);
  });

  it('submits a FormData (multipart): success and the stored row', async () => {
    const data = new FormData();
    data.append('name', 'Grace Hopper');
    data.append('email', 'grace@example.com');
    data.append('_gotcha', '');
    const result = await submit(data);
    expect(result.kind).toBe('success');
    const stored = await rows();
    expect(stored.at(-1)?.data).toEqual({
      name: 'Grace Hopper',
      email: 'grace@example.com',
    });
  });

  it("names the form's redirectUrl as next when it has one", async () => {
    const res = await request(`${t.url}/api/v1/forms`, {
      apiKey: owner.apiKey,
      json: {
        name: 'With redirect',
        fields: CONTACT_FIELDS,
        redirectUrl: 'https://www.example.com/thanks',
      },
    });
    expect(res.status, res.text).toBe(201);
    const result = await submit(
      { name: 'Ada', email: 'ada@example.com' },
      res.body.id as string,
    );
    expect(result).toEqual({
      kind: 'success',
      next: 'https://www.example.com/thanks',
    });
    expect((await rows(res.body.id as string)).length).toBe(1);
  });

  it('reports field errors by code and stores nothing', async () => {
    const before = (await rows()).length;
    const result = await submit({ email: 'not-an-address', Extra: 'x' });
    expect(fieldCodes(result)).toEqual({
      name: ['REQUIRED_FIELD_MISSING'],
      email: ['TYPE_EMAIL'],
      Extra: ['TYPE_TEXT'],
    });
    if (result.kind !== 'error') throw new Error('expected an error');
    expect(result.getFieldErrors('email')).toEqual([
      { code: 'TYPE_EMAIL', message: 'email must be a valid email address' },
    ]);
    expect(result.getFormErrors()).toEqual([]);

    const blank = new FormData();
    blank.append('name', '   ');
    blank.append('email', 'ada@example.com');
    expect(fieldCodes(await submit(blank))).toEqual({
      name: ['REQUIRED_FIELD_EMPTY'],
    });
    expect((await rows()).length).toBe(before);
  });

  it('reports TYPE_NUMERIC for a number field', async () => {
    const { form } = await createForm(t, owner.account.id, {
      fields: [{ id: 'age', type: 'number', required: true }],
    });
    expect(fieldCodes(await submit({ age: 'forty' }, form.id))).toEqual({
      age: ['TYPE_NUMERIC'],
    });
    expect((await submit({ age: '40' }, form.id)).kind).toBe('success');
    expect((await rows(form.id)).map((r) => r.data)).toEqual([{ age: 40 }]);
  });

  it('reports an unknown form as FORM_NOT_FOUND', async () => {
    const result = await submit({ name: 'Ada' }, 'no-such-form');
    expect(formErrors(result)).toEqual([
      { code: 'FORM_NOT_FOUND', message: 'Form not found' },
    ]);
  });

  it('reports a refused origin as BLOCKED and stores nothing', async () => {
    const { form } = await createForm(t, owner.account.id, {
      domainVerification: true,
    });
    await createDomain(t, form.id, {
      domain: 'example.com',
      status: 'verified',
    });
    // From Node there is neither Origin nor Referer: a verified-domain form refuses it.
    const result = await submit(
      { name: 'Ada', email: 'ada@example.com' },
      form.id,
    );
    expect(formErrors(result)).toEqual([
      {
        code: 'BLOCKED',
        message: expect.stringMatching(/\S/) as unknown as string,
      },
    ]);
    expect((await rows(form.id)).length).toBe(0);
  });

  it('reports a submission without fields as EMPTY, before the required fields', async () => {
    const before = (await rows()).length;
    expect(formErrors(await submit({}))).toEqual([
      {
        code: 'EMPTY',
        message: 'the submission is empty: fill in at least one field',
      },
    ]);
    expect(formErrors(await submit(new FormData()))[0].code).toBe('EMPTY');
    expect(
      formErrors(await submit({ _subject: 'Only a subject', _gotcha: '' }))[0]
        .code,
    ).toBe('EMPTY');
    expect((await rows()).length).toBe(before);
  });

  it('answers a filled _gotcha with success and stores nothing', async () => {
    const before = (await rows()).length;
    const result = await submit({
      name: 'Bot',
      email: 'bot@example.com',
      _gotcha: 'http://spam.example',
    });
    expect(result).toEqual({
      kind: 'success',
      next: `${t.config.publicUrl}/f/${formId}/thanks`,
    });
    const data = new FormData();
    data.append('_gotcha', 'filled');
    expect((await submit(data)).kind).toBe('success');
    expect((await rows()).length).toBe(before);
  });
});
