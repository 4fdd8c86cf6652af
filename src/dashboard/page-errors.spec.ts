import { formInputErrors, PageErrors } from './page-errors.js';

describe('page errors', () => {
  it('links each summary item to its input and keeps every message of a field', () => {
    const errors = new PageErrors()
      .add('Password is too short', 'password')
      .add('Password needs a digit', 'password')
      .add('Something else');
    expect(errors.summary).toEqual([
      { text: 'Password is too short', href: '#password' },
      { text: 'Password needs a digit', href: '#password' },
      { text: 'Something else' },
    ]);
    expect(errors.fields.password).toBe(
      'Password is too short. Password needs a digit',
    );
  });

  it('maps API messages about fields[i] back to the editor row they came from', () => {
    const errors = formInputErrors(
      [
        'fields.1.id must start with a letter or digit',
        'name must be 1 to 200 characters long',
      ],
      [0, 3],
    );
    expect(errors.summary[0]).toEqual({
      text: 'Field 4: id must start with a letter or digit',
      href: '#f3-id',
    });
    expect(errors.fields['f3.id']).toBe('ID must start with a letter or digit');
    expect(errors.fields.name).toBe('Name must be 1 to 200 characters long');
  });

  it('marks the second of two rows with the same id', () => {
    const errors = formInputErrors(
      ['fields must have unique ids, but "a" appears more than once'],
      [0, 2],
      ['a', 'a'],
    );
    expect(Object.keys(errors.fields)).toEqual(['f2.id']);
  });
});
