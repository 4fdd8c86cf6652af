import { validateFormInput } from '../../forms/input/form-input.validation.js';
import { spamSettingsErrors } from './spam-settings.js';

describe('spamSettingsErrors', () => {
  it('words each message for the input its property belongs to', async () => {
    const result = await validateFormInput(
      { spamFilter: { maxLinks: -1, blockedWords: ['ok', '!!!'] } },
      'patch',
    );
    const errors = spamSettingsErrors(result.errors, result.issues);
    expect(errors.fields.maxLinks).toBe('Most links must be at least 0');
    expect(errors.fields.blockedWords).toBe(
      'Each blocked word must contain a letter or a digit',
    );
    expect(errors.summary.map((item) => item.href)).toEqual([
      '#maxLinks',
      '#blockedWords',
    ]);
  });

  it('keeps a message about no input of the section as a sentence of its own', () => {
    const errors = spamSettingsErrors(
      ['captcha must be an object'],
      [{ field: 'captcha', code: 'isObject', detail: 'must be an object' }],
    );
    expect(errors.summary).toEqual([{ text: 'Captcha must be an object' }]);
    expect(Object.keys(errors.fields)).toEqual([]);
  });
});
