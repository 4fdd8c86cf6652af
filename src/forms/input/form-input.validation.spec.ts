import { CreateFormDto } from '../dto/create-form.dto.js';
import { FieldDefinitionDto } from '../dto/field-definition.dto.js';
import { PatchFormDto } from '../dto/patch-form.dto.js';
import { validateFormInput } from './form-input.validation.js';

describe('validateFormInput', () => {
  it('returns the transformed DTO when the input is valid', async () => {
    const result = await validateFormInput(
      {
        name: ' Contact ',
        fields: [{ id: 'topic', type: 'select', options: ['a', 'b'] }],
      },
      'create',
    );
    expect(result.errors).toEqual([]);
    expect(result.value).toBeInstanceOf(CreateFormDto);
    expect(result.value?.name).toBe('Contact');
    expect(result.value?.fields?.[0]).toBeInstanceOf(FieldDefinitionDto);
    expect(result.value?.fields?.[0]).toEqual({
      id: 'topic',
      type: 'select',
      options: ['a', 'b'],
    });
  });

  it('accepts a file field with its size, formats and count', async () => {
    const field = {
      id: 'cv',
      type: 'file',
      required: true,
      maxSize: 5_000_000,
      accept: ['application/pdf', 'image/*', '.docx'],
      maxFiles: 3,
    };
    const result = await validateFormInput(
      { name: 'Jobs', fields: [field] },
      'create',
    );
    expect(result.errors).toEqual([]);
    expect(result.value?.fields?.[0]).toEqual(field);
  });

  it('refuses file settings on other fields and bad file settings', async () => {
    const result = await validateFormInput(
      {
        name: 'Jobs',
        fields: [
          { id: 'name', type: 'text', maxSize: 10, accept: ['.pdf'] },
          { id: 'cv', type: 'file', maxSize: 0, accept: ['pdf'], maxFiles: 11 },
          { id: 'photo', type: 'file', accept: [], maxFiles: 1.5 },
        ],
      },
      'create',
    );
    expect(result.errors).toEqual([
      'fields.0.maxSize is only allowed on file fields',
      'fields.0.accept is only allowed on file fields',
      'fields.1.maxSize must be at least 1',
      'each entry of fields.1.accept must be a MIME type (image/png), a family (image/*) or an extension (.pdf)',
      'fields.1.maxFiles must be at most 10',
      'fields.2.accept must not be empty',
      'fields.2.maxFiles must be a whole number',
    ]);
  });

  it('requires a name to create or replace, but not to patch', async () => {
    for (const mode of ['create', 'replace'] as const) {
      expect(await validateFormInput({}, mode)).toEqual({
        errors: ['name is required'],
        issues: [{ field: 'name', code: 'isPresent', detail: 'is required' }],
      });
    }
    const patch = await validateFormInput({}, 'patch');
    expect(patch.errors).toEqual([]);
    expect(patch.value).toBeInstanceOf(PatchFormDto);
  });

  it('checks present properties of a patch like any other', async () => {
    expect(
      await validateFormInput(
        { name: null, fields: [{ id: '_x', type: 'text' }] },
        'patch',
      ),
    ).toEqual({
      errors: [
        'name must be a string',
        'fields.0.id must not start with "_": that prefix is reserved for control keys such as _honeypot',
      ],
      // Parallel to the messages: the property each is about, for pages that place them.
      issues: [
        { field: 'name', code: 'isString', detail: 'must be a string' },
        {
          field: 'fields.0.id',
          code: 'fieldId',
          detail:
            'must not start with "_": that prefix is reserved for control keys such as _honeypot',
        },
      ],
    });
  });

  it('gives one message per problem, naming the field', async () => {
    const { errors } = await validateFormInput(
      {
        name: 'x'.repeat(201),
        fields: [
          { id: 'a', type: 'number', options: ['1'] },
          { id: 'b', type: 'select', options: [] },
          { id: 'c', type: 'text', maxLength: 100_001, label: 7 },
        ],
        domainVerification: 'on',
        secret: true,
      },
      'replace',
    );
    expect(errors).toEqual([
      'property secret should not exist',
      'name must be 1 to 200 characters long',
      'fields.0.options is only allowed on select fields',
      'fields.1.options must not be empty',
      'fields.2.label must be a string',
      'fields.2.maxLength must be at most 100000',
      'domainVerification must be true or false',
    ]);
  });

  it('reports duplicate ids once, listing each duplicated id', async () => {
    const { errors } = await validateFormInput(
      {
        name: 'F',
        fields: ['a', 'b', 'a', 'b', 'a', 'c'].map((id) => ({
          id,
          type: 'text',
        })),
      },
      'create',
    );
    expect(errors).toEqual([
      'fields must have unique ids, but "a", "b" appear more than once',
    ]);
  });

  it('treats ids that differ only in case as distinct', async () => {
    const { errors } = await validateFormInput(
      {
        name: 'F',
        fields: [
          { id: 'Email', type: 'email' },
          { id: 'email', type: 'email' },
        ],
      },
      'create',
    );
    expect(errors).toEqual([]);
  });

  it('refuses input that is not an object', async () => {
    expect(await validateFormInput(null, 'create')).toEqual({
      errors: ['body must be a JSON object'],
    });
    expect((await validateFormInput('name', 'patch')).errors).toHaveLength(1);
  });
});
