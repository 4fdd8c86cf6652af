// The fields editor of the new-form and settings pages, without JavaScript: every row is a
// set of inputs named `f<i>.<property>`, and "Add field" / "Move up" / "Remove" are submit
// buttons (`op=add`, `op=up:2`, ...) that re-render the page with the rows rearranged.
import { ownEntry } from '../../common/values/own-entry.js';
import { FIELD_TYPES, type FieldDefinition } from '../../forms/form.entity.js';

export const MAX_EDITOR_ROWS = 100;

export interface EditorRow {
  id: string;
  label: string;
  type: string;
  required: boolean;
  maxLength: string;
  /** One option per line (select fields). */
  options: string;
  /** File fields: the largest file in bytes, the accepted formats (comma list), files per submission. */
  maxSize: string;
  accept: string;
  maxFiles: string;
}

export type EditorOp =
  | { kind: 'save' }
  | { kind: 'add' }
  | { kind: 'remove' | 'up' | 'down'; index: number };

export interface EditorState {
  rows: EditorRow[];
  /** Problems of one row, by row index then property (id, label, type, ...). */
  rowErrors: Record<number, Record<string, string>>;
}

export const FIELD_TYPE_LABELS: Record<string, string> = {
  text: 'Text',
  email: 'Email',
  textarea: 'Long text',
  number: 'Number',
  url: 'URL',
  tel: 'Phone',
  date: 'Date',
  select: 'Choice (select)',
  checkbox: 'Checkbox',
  file: 'File upload',
};

/** A type the editor offers, with the name the page shows for it. */
export interface FieldTypeChoice {
  value: string;
  label: string;
}

export function typeLabel(type: string): string {
  return ownEntry(FIELD_TYPE_LABELS, type) ?? type;
}

export const FIELD_TYPE_CHOICES: readonly FieldTypeChoice[] = FIELD_TYPES.map(
  (type) => ({ value: type, label: typeLabel(type) }),
);

export function blankRow(): EditorRow {
  return {
    id: '',
    label: '',
    type: 'text',
    required: false,
    maxLength: '',
    options: '',
    maxSize: '',
    accept: '',
    maxFiles: '',
  };
}

export function rowsFromFields(fields: FieldDefinition[]): EditorRow[] {
  return fields.map((field) => ({
    id: field.id,
    label: field.label ?? '',
    type: field.type,
    required: field.required === true,
    maxLength: field.maxLength === undefined ? '' : String(field.maxLength),
    options: (field.options ?? []).join('\n'),
    maxSize: field.maxSize === undefined ? '' : String(field.maxSize),
    accept: (field.accept ?? []).join(', '),
    maxFiles: field.maxFiles === undefined ? '' : String(field.maxFiles),
  }));
}

function text(body: Record<string, unknown>, key: string): string {
  if (!Object.hasOwn(body, key)) return '';
  const value = body[key];
  return typeof value === 'string' ? value : '';
}

export function rowsFromBody(body: Record<string, unknown>): EditorRow[] {
  const rows: EditorRow[] = [];
  for (let i = 0; i < MAX_EDITOR_ROWS; i++) {
    if (!Object.hasOwn(body, `f${i}.type`)) break;
    rows.push({
      id: text(body, `f${i}.id`).trim(),
      label: text(body, `f${i}.label`).trim(),
      type: text(body, `f${i}.type`),
      required: Object.hasOwn(body, `f${i}.required`),
      maxLength: text(body, `f${i}.maxLength`).trim(),
      options: text(body, `f${i}.options`),
      maxSize: text(body, `f${i}.maxSize`).trim(),
      accept: text(body, `f${i}.accept`).trim(),
      maxFiles: text(body, `f${i}.maxFiles`).trim(),
    });
  }
  return rows;
}

export function opFromBody(body: Record<string, unknown>): EditorOp {
  const raw = text(body, 'op');
  if (raw === 'add') return { kind: 'add' };
  const match = /^(remove|up|down):(\d{1,3})$/.exec(raw);
  if (match) {
    return {
      kind: match[1] as 'remove' | 'up' | 'down',
      index: Number(match[2]),
    };
  }
  return { kind: 'save' };
}

/** The rows after an editing button; null for "save". */
export function applyOp(rows: EditorRow[], op: EditorOp): EditorRow[] | null {
  const next = [...rows];
  switch (op.kind) {
    case 'save':
      return null;
    case 'add':
      if (next.length < MAX_EDITOR_ROWS) next.push(blankRow());
      return next;
    case 'remove':
      next.splice(op.index, 1);
      return next;
    case 'up':
    case 'down': {
      const target = op.kind === 'up' ? op.index - 1 : op.index + 1;
      if (op.index >= next.length || target < 0 || target >= next.length) {
        return next;
      }
      [next[op.index], next[target]] = [next[target], next[op.index]];
      return next;
    }
  }
}

/** A field id from a label, for owners who leave the id empty: "Your e-mail" → "your_e_mail". */
export function idFromLabel(label: string): string {
  // Labels are at most 200 characters (checked later); only that much is worth reading.
  const id = label
    .slice(0, 200)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_');
  // Runs are single underscores by now: at most one to drop at each end.
  const start = id.startsWith('_') ? 1 : 0;
  const end = id.length > start && id.endsWith('_') ? id.length - 1 : id.length;
  return id.slice(start, end).slice(0, 64);
}

/** Rows that are entirely empty are ignored, so a spare blank row never blocks saving. */
function isBlank(row: EditorRow): boolean {
  return (
    !row.id &&
    !row.label &&
    !row.options.trim() &&
    !row.maxLength &&
    !row.maxSize &&
    !row.accept &&
    !row.maxFiles
  );
}

/**
 * The `fields` value the API would receive: plain objects, validated afterwards by the same
 * validation the API runs. Returns the row index of each field for mapping errors back.
 */
export function fieldsFromRows(rows: EditorRow[]): {
  fields: Record<string, unknown>[];
  rowOfField: number[];
} {
  const fields: Record<string, unknown>[] = [];
  const rowOfField: number[] = [];
  rows.forEach((row, index) => {
    if (isBlank(row)) return;
    const field: Record<string, unknown> = {
      id: row.id || idFromLabel(row.label),
      type: row.type,
    };
    if (row.label) field.label = row.label;
    if (row.required) field.required = true;
    if (row.maxLength) field.maxLength = numberOrText(row.maxLength);
    if (row.type === 'file') {
      if (row.maxSize) field.maxSize = numberOrText(row.maxSize);
      if (row.maxFiles) field.maxFiles = numberOrText(row.maxFiles);
      const accept = row.accept
        .split(/[,\s]+/)
        .map((entry) => entry.trim())
        .filter(Boolean);
      if (accept.length > 0) field.accept = accept;
    }
    if (row.type === 'select') {
      field.options = row.options
        .split(/\r?\n/)
        .map((option) => option.trim())
        .filter(Boolean);
    }
    fields.push(field);
    rowOfField.push(index);
  });
  return { fields, rowOfField };
}

/** A whole number as a number; anything else as typed, for the validation to refuse. */
function numberOrText(value: string): number | string {
  return /^\d{1,10}$/.test(value) ? Number(value) : value;
}

export function isFieldType(value: string): boolean {
  return (FIELD_TYPES as readonly string[]).includes(value);
}
