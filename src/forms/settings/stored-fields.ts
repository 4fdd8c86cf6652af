// A form's field definitions as the form table stores them (a JSON column): written in one
// shape whatever they came from, and read back as objects whichever way the driver returns
// the column.
import { ValidationFailedException } from '../../common/errors/errors.js';
import type { FieldDefinition } from '../form.entity.js';

/**
 * A field definition as stored: only the properties a field can have, in a fixed order,
 * whatever object (a DTO instance, a dashboard form) it came from.
 */
export function toStoredField(field: FieldDefinition): FieldDefinition {
  const stored: FieldDefinition = { id: field.id, type: field.type };
  if (field.label !== undefined) stored.label = field.label;
  if (field.required !== undefined) stored.required = field.required;
  if (field.maxLength !== undefined) stored.maxLength = field.maxLength;
  if (field.options !== undefined) stored.options = [...field.options];
  if (field.maxSize !== undefined) stored.maxSize = field.maxSize;
  if (field.accept !== undefined) stored.accept = [...field.accept];
  if (field.maxFiles !== undefined) stored.maxFiles = field.maxFiles;
  return stored;
}

/** MariaDB's JSON is LONGTEXT: depending on the driver path the column may come back as text. */
export function storedFields(
  fields: FieldDefinition[] | string,
): FieldDefinition[] {
  return typeof fields === 'string'
    ? (JSON.parse(fields) as FieldDefinition[])
    : fields;
}

/**
 * The fields as stored, once every `file` field's `maxSize` is within the server's
 * UPLOAD_MAX_FILE_SIZE (a limit of this installation, so not part of the DTO's rules).
 */
export function checkedFields(
  fields: FieldDefinition[],
  config: { uploads: { maxFileSize: number } },
): FieldDefinition[] {
  const maxFileSize = config.uploads.maxFileSize;
  const errors = fields.flatMap((field, index) =>
    field.type === 'file' && (field.maxSize ?? 0) > maxFileSize
      ? [
          `fields.${index}.maxSize must be at most ${maxFileSize} (this server's UPLOAD_MAX_FILE_SIZE)`,
        ]
      : [],
  );
  if (errors.length > 0) throw new ValidationFailedException(errors);
  return fields.map(toStoredField);
}
