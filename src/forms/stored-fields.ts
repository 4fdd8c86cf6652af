// A form's field definitions as the form table stores them (a JSON column): written in one
// shape whatever they came from, and read back as objects whichever way the driver returns
// the column.
import type { FieldDefinition } from './form.entity.js';

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
