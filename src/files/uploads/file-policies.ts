// What each `file` field of a form allows, with the defaults filled in and the server's
// UPLOAD_MAX_FILE_SIZE applied (a form saved under a larger limit still obeys today's).
import { DEFAULT_FILE_MAX_SIZE } from '../../forms/dto/field-definition.dto.js';
import type { FieldDefinition } from '../../forms/form.entity.js';
import type { FileFieldPolicy } from './upload-receiver.js';

/** The form's file fields by id, or null when it has none (files are then refused). */
export function filePolicies(
  fields: readonly FieldDefinition[],
  maxFileSize: number,
): ReadonlyMap<string, FileFieldPolicy> | null {
  const policies = new Map<string, FileFieldPolicy>();
  for (const field of fields) {
    if (field.type !== 'file') continue;
    policies.set(field.id, {
      id: field.id,
      maxSize: Math.min(field.maxSize ?? DEFAULT_FILE_MAX_SIZE, maxFileSize),
      accept: field.accept,
      maxFiles: field.maxFiles ?? 1,
      label: field.label?.trim() || undefined,
    });
  }
  return policies.size > 0 ? policies : null;
}
