import { validateFormInput } from '../forms/input/form-input.validation.js';
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

  it('maps API messages about fields[i] back to the editor row they came from', async () => {
    const result = await validateFormInput(
      {
        name: '',
        fields: [
          { id: 'a', type: 'text' },
          { id: '-b', type: 'text' },
        ],
      },
      'create',
    );
    expect(result.errors).toEqual([
      'name must be 1 to 200 characters long',
      'fields.1.id must start with a letter or digit and contain only letters, digits, "_", "." and "-"',
    ]);
    const errors = formInputErrors(result.errors, result.issues, [0, 3]);
    expect(errors.summary[1]).toEqual({
      text: 'Field 4: id must start with a letter or digit and contain only letters, digits, "_", "." and "-"',
      href: '#f3-id',
    });
    expect(errors.fields['f3.id']).toBe(
      'ID must start with a letter or digit and contain only letters, digits, "_", "." and "-"',
    );
    expect(errors.fields.name).toBe('Name must be 1 to 200 characters long');
  });

  it('marks the second of two rows with the same id', async () => {
    const fields = [
      { id: 'a', type: 'text' },
      { id: 'a', type: 'text' },
    ];
    const result = await validateFormInput({ name: 'F', fields }, 'create');
    const errors = formInputErrors(
      result.errors,
      result.issues,
      [0, 2],
      ['a', 'a'],
    );
    expect(Object.keys(errors.fields)).toEqual(['f2.id']);
  });
});
