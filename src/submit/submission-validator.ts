// The per-form submission validator. A form's field definitions are compiled once into a list of
// small checks (kept with the form's cached configuration, form-config.cache.ts), so the hot path
// never re-reads the definitions.
//
// What it stores of each value is told in docs/submitting.md ("Stored values").
import { isEmailAddress } from '../common/values/email-address.js';
import type { FieldDefinition, FieldType } from '../forms/form.entity.js';
import { CAPTCHA_TOKEN_FIELD_NAMES } from '../forms/settings/spam-settings.js';
import type { SubmissionData } from '../submissions/submission.entity.js';

/** Longest value of a field without its own maxLength, and of any key of a form without fields. */
export const DEFAULT_MAX_LENGTH = 5000;
/** Most non-control keys one submission may carry (more when a form has more fields). */
export const MAX_KEYS = 100;
/** Most control (`_…`) keys one submission may carry. */
export const MAX_CONTROL_KEYS = 20;
/** Longest key a form without fields accepts (field ids are at most 64 characters). */
export const MAX_KEY_LENGTH = 100;

/**
 * What a failure is about, beside its message (parallel to `errors`): the field it names
 * (absent for a problem with the whole body) and its kind, in the terms Formspree's client
 * libraries use (the `/f/:formId` route answers with them; `/api/submit` with messages only).
 */
export type ValidationCode =
  | 'REQUIRED_FIELD_MISSING'
  | 'REQUIRED_FIELD_EMPTY'
  | 'TYPE_EMAIL'
  | 'TYPE_NUMERIC'
  | 'TYPE_TEXT'
  | 'EMPTY'
  | 'NO_FILE_UPLOADS';

export interface ValidationIssue {
  field?: string;
  code?: ValidationCode;
  /** The label of the form's field, for the page a visitor's browser shows. */
  label?: string;
}

export type ValidationResult =
  | { ok: true; data: SubmissionData }
  | { ok: false; errors: string[]; issues: ValidationIssue[] };

/** `withFiles`: the `file` fields the multipart body carried files for. */
export type SubmissionValidator = (
  body: unknown,
  withFiles?: ReadonlySet<string>,
) => ValidationResult;

type Scalar = string | number | boolean;
type Check = { value: Scalar } | { error: string; code?: ValidationCode };
/** Checks a non-blank scalar; the field id is already in scope. */
type TypeCheck = (value: Scalar) => Check;

export function isControlKey(key: string): boolean {
  return key.startsWith('_') || CAPTCHA_TOKEN_FIELD_NAMES.has(key);
}

/** true for values that count as "not filled in". */
function isBlank(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    (typeof value === 'string' && value.trim() === '')
  );
}

function shape(key: string, value: unknown): string | null {
  if (Array.isArray(value)) {
    return `${key} must be a single value, not a list (was the key sent more than once?)`;
  }
  if (typeof value === 'object' && value !== null) {
    return `${key} must be a single value, not an object`;
  }
  if (typeof value === 'number' && !Number.isFinite(value)) {
    return `${key} must be a finite number`;
  }
  return null;
}

/** Length in characters (code points), the way a person counts them. */
function lengthOf(text: string, max: number): number {
  // Code points never outnumber UTF-16 units: only long strings need counting.
  if (text.length <= max) return text.length;
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
/**
 * Digits, spaces and + ( ) . / - separators, an optional extension. The space before
 * "x"/"ext" belongs to the separator class alone: a second way to match it (`\s*`)
 * made a long run of spaces backtrack quadratically.
 */
const TEL = /^\+?[0-9 ()./-]+(?:(?:x|ext\.?) *[0-9]{1,6})?$/i;
/** Longest phone value looked at: 20 digits with separators and an extension fit. */
const MAX_TEL_LENGTH = 64;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const CHECKED = new Set(['on', 'true', 'yes', '1']);
const UNCHECKED = new Set(['off', 'false', 'no', '0']);

function isRealDate(text: string): boolean {
  const match = DATE.exec(text);
  if (!match) return false;
  const [year, month, day] = match.slice(1).map(Number);
  if (year < 1) return false;
  const date = new Date(Date.UTC(year, month - 1, day));
  date.setUTCFullYear(year); // Date.UTC maps years 0–99 to 1900–1999
  return (
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day
  );
}

function isHttpUrl(text: string): boolean {
  if (!/^https?:\/\//i.test(text)) return false;
  try {
    const url = new URL(text);
    return (
      (url.protocol === 'http:' || url.protocol === 'https:') &&
      url.hostname !== ''
    );
  } catch {
    return false;
  }
}

function typeCheck(field: FieldDefinition): TypeCheck {
  const id = field.id;
  const text = (value: Scalar) => String(value).trim();
  const checks: Record<FieldType, TypeCheck> = {
    text: (value) => ({ value: String(value) }),
    textarea: (value) => ({ value: String(value) }),
    email: (value) => {
      const address = text(value);
      return isEmailAddress(address)
        ? { value: address }
        : { error: `${id} must be a valid email address`, code: 'TYPE_EMAIL' };
    },
    url: (value) =>
      isHttpUrl(text(value))
        ? { value: text(value) }
        : { error: `${id} must be a URL starting with http:// or https://` },
    tel: (value) => {
      const phone = text(value);
      if (phone.length > MAX_TEL_LENGTH || !TEL.test(phone)) {
        return { error: `${id} must be a phone number` };
      }
      const digits = phone.replace(/\D/g, '').length;
      return digits >= 3 && digits <= 20
        ? { value: phone }
        : { error: `${id} must be a phone number` };
    },
    date: (value) =>
      isRealDate(text(value))
        ? { value: text(value) }
        : { error: `${id} must be a date written YYYY-MM-DD` },
    number: (value) => {
      if (typeof value === 'number') return { value };
      const number = typeof value === 'string' ? text(value) : '';
      if (NUMBER.test(number) && Number.isFinite(Number(number))) {
        return { value: Number(number) };
      }
      return { error: `${id} must be a number`, code: 'TYPE_NUMERIC' };
    },
    select: (value) => {
      const options = field.options ?? [];
      if (options.length === 0 || options.includes(String(value))) {
        return { value: String(value) };
      }
      return { error: `${id} must be one of: ${options.join(', ')}` };
    },
    checkbox: (value) => {
      const answer = String(value).trim().toLowerCase();
      if (CHECKED.has(answer)) return { value: true };
      if (UNCHECKED.has(answer)) return { value: false };
      return {
        error: `${id} must be checked or unchecked (on, true, false, 1 or 0)`,
      };
    },
    file: () => ({ error: `${id}: expected a file, not text` }),
  };
  return checks[field.type] ?? checks.text;
}

interface CompiledField {
  id: string;
  required: boolean;
  maxLength: number;
  check: TypeCheck;
  isCheckbox: boolean;
  label: string | undefined;
}

function compileField(field: FieldDefinition): CompiledField {
  return {
    id: field.id,
    label: field.label?.trim() || undefined,
    required: field.required === true,
    maxLength: field.maxLength ?? DEFAULT_MAX_LENGTH,
    check: typeCheck(field),
    isCheckbox: field.type === 'checkbox',
  };
}

/** Control characters, the Unicode line and paragraph separators included. */
const CONTROL_CHARACTER = /[\p{Cc}\u2028\u2029]/u;
const CONTROL_CHARACTERS = /[\p{Cc}\u2028\u2029]/gu;

/**
 * Shown in messages about keys the client invented: quoted, never endless, and every
 * control character written as an escape (`\n`, `\u2028`), so a message never breaks a
 * line or a page.
 */
export function quoteKey(key: string): string {
  return JSON.stringify(key.length > 64 ? `${key.slice(0, 64)}…` : key).replace(
    CONTROL_CHARACTERS,
    (character) =>
      `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

export function controlCharacterMessage(key: string): string {
  return `field name ${quoteKey(key)} contains a control character (a line break, a tab…); field names must be plain text`;
}

function validateField(
  field: CompiledField,
  raw: unknown,
): { value?: Scalar; error?: string; code?: ValidationCode } {
  const wrongShape = shape(field.id, raw);
  if (wrongShape) return { error: wrongShape };
  if (isBlank(raw)) {
    if (!field.required) return {};
    return {
      error: `${field.id} is required`,
      code:
        raw === undefined ? 'REQUIRED_FIELD_MISSING' : 'REQUIRED_FIELD_EMPTY',
    };
  }
  const value = raw as Scalar;
  if (
    typeof value === 'string' &&
    lengthOf(value, field.maxLength) > field.maxLength
  ) {
    return {
      error: `${field.id} must be at most ${field.maxLength} characters long`,
    };
  }
  const result = field.check(value);
  if ('error' in result) return result;
  if (field.isCheckbox && field.required && result.value === false) {
    return { error: `${field.id} must be checked` };
  }
  return { value: result.value };
}

/** The split of a body into control keys and data keys, or why it is not a flat object. */
function keysOf(body: unknown): { keys: string[] } | { error: string } {
  if (body === undefined || body === null) return { keys: [] };
  if (typeof body !== 'object' || Array.isArray(body)) {
    return {
      error:
        'the body must be a set of field names and values (a JSON object or a form post)',
    };
  }
  return { keys: Object.keys(body) };
}

export const EMPTY_SUBMISSION_MESSAGE =
  'the submission is empty: fill in at least one field';

/** A failure about the whole body (no field, no code), one issue per message. */
function failure(errors: string[]): ValidationResult {
  return { ok: false, errors, issues: errors.map(() => ({})) };
}

export function compileSubmissionValidator(
  definitions: FieldDefinition[],
): SubmissionValidator {
  const fields = definitions.map(compileField);
  const byId = new Map(fields.map((field) => [field.id, field]));
  const byLowerId = new Map(
    fields.map((field) => [field.id.toLowerCase(), field.id]),
  );
  const maxKeys = Math.max(MAX_KEYS, fields.length);
  const acceptsAnyKey = fields.length === 0;

  return (body, withFiles) => {
    const split = keysOf(body);
    if ('error' in split) return failure([split.error]);
    const record = (body ?? {}) as Record<string, unknown>;
    const dataKeys: string[] = [];
    let controlKeys = 0;
    // A key may never carry a line break or another control character: it would end up
    // in mails, exports and pages, where it could fake a line.
    const unsafeKeys: string[] = [];
    for (const key of split.keys) {
      if (CONTROL_CHARACTER.test(key)) unsafeKeys.push(key);
      else if (isControlKey(key)) controlKeys += 1;
      else dataKeys.push(key);
    }
    if (unsafeKeys.length > 0) {
      return failure(unsafeKeys.slice(0, 10).map(controlCharacterMessage));
    }
    if (dataKeys.length > maxKeys) {
      return failure([
        `the submission has ${dataKeys.length} fields; at most ${maxKeys} are accepted`,
      ]);
    }
    if (controlKeys > MAX_CONTROL_KEYS) {
      return failure([
        `the submission has ${controlKeys} keys starting with "_"; at most ${MAX_CONTROL_KEYS} are accepted`,
      ]);
    }

    const errors: string[] = [];
    const issues: ValidationIssue[] = [];
    const fail = (
      message: string,
      field: string,
      code: ValidationCode = 'TYPE_TEXT',
      label?: string,
    ) => {
      errors.push(message);
      issues.push(
        label === undefined ? { field, code } : { field, code, label },
      );
    };
    const entries: Array<[string, Scalar]> = [];
    if (acceptsAnyKey) {
      for (const key of dataKeys) {
        const raw = record[key];
        const wrongShape = shape(quoteKey(key), raw);
        if (key.length > MAX_KEY_LENGTH) {
          fail(
            `field name ${quoteKey(key)} is longer than ${MAX_KEY_LENGTH} characters`,
            key,
          );
        } else if (key.trim() === '') {
          fail('a field name must not be empty', key);
        } else if (wrongShape) {
          fail(wrongShape, key);
        } else if (!isBlank(raw)) {
          const value = raw as Scalar;
          if (
            typeof value === 'string' &&
            lengthOf(value, DEFAULT_MAX_LENGTH) > DEFAULT_MAX_LENGTH
          ) {
            fail(
              `${quoteKey(key)} must be at most ${DEFAULT_MAX_LENGTH} characters long`,
              key,
            );
          } else {
            entries.push([key, value]);
          }
        }
      }
    } else {
      for (const field of fields) {
        const raw = Object.hasOwn(record, field.id)
          ? record[field.id]
          : undefined;
        if (raw === undefined && withFiles?.has(field.id)) continue; // upload-receiver.ts
        const result = validateField(field, raw);
        if (result.error !== undefined) {
          fail(result.error, field.id, result.code, field.label);
        } else if (result.value !== undefined) {
          entries.push([field.id, result.value]);
        }
      }
      for (const key of dataKeys) {
        if (byId.has(key)) continue;
        const sameButCase = byLowerId.get(key.toLowerCase());
        fail(
          sameButCase === undefined
            ? `${quoteKey(key)} is not a field of this form`
            : `${quoteKey(key)} is not a field of this form (field ids are case-sensitive: did you mean ${quoteKey(sameButCase)}?)`,
          key,
        );
      }
    }
    if (errors.length > 0) return { ok: false, errors, issues };
    if (entries.length === 0 && !withFiles?.size) {
      return {
        ok: false,
        errors: [EMPTY_SUBMISSION_MESSAGE],
        issues: [{ code: 'EMPTY' }],
      };
    }
    // fromEntries defines own properties, so no key can reach a prototype.
    return { ok: true, data: Object.fromEntries(entries) as SubmissionData };
  };
}
