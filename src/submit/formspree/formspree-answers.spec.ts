import {
  formspreeErrors,
  isFormspreeUrl,
  thanksUrl,
} from './formspree-answers.js';

describe('isFormspreeUrl', () => {
  it('matches /f/<id> with or without a query, and nothing else', () => {
    for (const url of ['/f/abc', '/f/abc?x=1', '/f/a-b_C1?']) {
      expect(isFormspreeUrl(url), url).toBe(true);
    }
    for (const url of [
      '/f/',
      '/f',
      '/f?x',
      '/f/abc/thanks',
      '/f/abc/',
      '/fx/abc',
      '/api/submit/abc',
      '/dashboard/f/abc',
      '/F/abc',
    ]) {
      expect(isFormspreeUrl(url), url).toBe(false);
    }
  });
});

describe('thanksUrl', () => {
  it('puts the escaped form id under the public URL', () => {
    expect(thanksUrl('https://forms.example.com', 'a1')).toBe(
      'https://forms.example.com/f/a1/thanks',
    );
  });
});

describe('formspreeErrors', () => {
  it('gives validation messages the field and code of their issues', () => {
    expect(
      formspreeErrors(
        400,
        {
          error: 'Validation failed',
          errors: ['name is required', 'captcha: missing'],
        },
        [{ field: 'name', code: 'REQUIRED_FIELD_MISSING' }, {}],
      ),
    ).toEqual({
      error: 'Validation failed',
      errors: [
        {
          field: 'name',
          code: 'REQUIRED_FIELD_MISSING',
          message: 'name is required',
        },
        { message: 'captcha: missing' },
      ],
    });
  });

  it('keeps messages without issues as form errors', () => {
    expect(
      formspreeErrors(
        400,
        { error: 'Validation failed', errors: ['x'] },
        undefined,
      ),
    ).toEqual({ error: 'Validation failed', errors: [{ message: 'x' }] });
  });

  it('codes 403, 404 and an empty JSON body; the rest carry their message', () => {
    expect(
      formspreeErrors(404, { error: 'Form not found' }, undefined),
    ).toEqual({
      error: 'Form not found',
      errors: [{ code: 'FORM_NOT_FOUND', message: 'Form not found' }],
    });
    expect(formspreeErrors(403, { error: 'No' }, undefined).errors).toEqual([
      { code: 'BLOCKED', message: 'No' },
    ]);
    expect(
      formspreeErrors(
        400,
        { error: 'Request body is empty but declared as JSON' },
        undefined,
      ).errors[0].code,
    ).toBe('EMPTY');
    expect(formspreeErrors(429, { error: 'Too many' }, undefined)).toEqual({
      error: 'Too many',
      errors: [{ message: 'Too many' }],
    });
    expect(
      formspreeErrors(503, { error: 'Database unavailable' }, undefined),
    ).toEqual({
      error: 'Database unavailable',
      errors: [{ message: 'Database unavailable' }],
    });
  });
});
