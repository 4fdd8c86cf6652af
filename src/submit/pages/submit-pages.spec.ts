import { labelled, validationPage } from './submit-pages.js';

describe("a visitor's validation page", () => {
  it('names a labelled field by its label, the rest of the message kept', () => {
    expect(
      labelled('email must be a valid email address', {
        field: 'email',
        label: 'Your email',
      }),
    ).toBe('Your email must be a valid email address');
    expect(
      labelled('cv: larger than 10 bytes', { field: 'cv', label: 'Your CV' }),
    ).toBe('Your CV: larger than 10 bytes');
  });

  it('keeps the id when the field has no label or the message does not start with it', () => {
    expect(labelled('email is required', { field: 'email' })).toBe(
      'email is required',
    );
    expect(
      labelled('emailing is off', { field: 'email', label: 'Your email' }),
    ).toBe('emailing is off');
    expect(labelled('the submission is empty', undefined)).toBe(
      'the submission is empty',
    );
  });

  it('escapes the label it shows', () => {
    const page = validationPage(['name is required'], undefined, [
      { field: 'name', label: '<b>Name</b>' },
    ]);
    expect(page).toContain('<li>&lt;b&gt;Name&lt;/b&gt; is required</li>');
  });
});
