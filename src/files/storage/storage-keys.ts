// Object keys of stored files: `forms/<formId>/<submissionId>/<fileId>`, built only from
// ids the service made (or checked), never from anything a client named.
import { randomBytes } from 'node:crypto';

const SEGMENT = /^[A-Za-z0-9_-]{1,64}$/;

/** A key: slash-separated segments of letters, digits, `_` and `-` only. */
export function isStorageKey(key: string): boolean {
  const segments = key.split('/');
  return segments.length <= 8 && segments.every((part) => SEGMENT.test(part));
}

/** A new file id: 128 random bits, base64url (22 characters). */
export function newFileId(): string {
  return randomBytes(16).toString('base64url');
}

export function fileKey(
  formId: string,
  submissionId: string,
  fileId: string,
): string {
  const key = `forms/${formId}/${submissionId}/${fileId}`;
  if (!isStorageKey(key)) throw new Error(`not a storage key: ${key}`);
  return key;
}

/** The prefix of every file of a form. */
export function formPrefix(formId: string): string {
  const prefix = `forms/${formId}/`;
  if (!isStorageKey(prefix.slice(0, -1))) {
    throw new Error(`not a form id: ${formId}`);
  }
  return prefix;
}

/** The file id of a key made by fileKey, or undefined for any other key. */
export function fileIdOfKey(key: string): string | undefined {
  const parts = key.split('/');
  return parts.length === 4 && parts[0] === 'forms' && isStorageKey(key)
    ? parts[3]
    : undefined;
}
