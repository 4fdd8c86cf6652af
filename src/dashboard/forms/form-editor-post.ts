// A post of the fields editor (the new-form page and a form's settings), read once for
// both: an editing button (add, remove, move) shows the editor again with its rows
// rearranged; a save is validated as the API validates its body, and refused with each
// message placed beside its input.
import {
  validateFormInput,
  type FormInputByMode,
} from '../../forms/input/form-input.validation.js';
import { textOf, type FormBody } from '../form-body.js';
import { formInputErrors, type PageErrors } from '../page-errors.js';
import {
  applyOp,
  FIELD_TYPE_CHOICES,
  fieldsFromRows,
  opFromBody,
  rowsFromBody,
  type EditorRow,
  type FieldTypeChoice,
} from './form-editor.js';

/** What the editor's part of a page shows. */
export interface EditorView {
  name: string;
  rows: EditorRow[];
  fieldTypes: readonly FieldTypeChoice[];
  errors?: PageErrors;
}

export function editorView(
  name: string,
  rows: EditorRow[],
  errors?: PageErrors,
): EditorView {
  return { name, rows, fieldTypes: FIELD_TYPE_CHOICES, errors };
}

export type EditorPost<T> =
  /** An editing button: the editor again, 200. */
  | { kind: 'edited'; editor: EditorView }
  /** A save the validation refused: the editor with its errors, 400. */
  | { kind: 'invalid'; editor: EditorView }
  /** A save to store; `editor` is what to show again should storing it be refused. */
  | { kind: 'valid'; value: T; editor: EditorView };

export async function readEditorPost<M extends 'create' | 'patch'>(
  body: unknown,
  mode: M,
): Promise<EditorPost<FormInputByMode[M]>> {
  const name = textOf(body, 'name');
  const form = (body ?? {}) as FormBody;
  const rows = rowsFromBody(form);
  const edited = applyOp(rows, opFromBody(form));
  if (edited) return { kind: 'edited', editor: editorView(name, edited) };
  const { fields, rowOfField } = fieldsFromRows(rows);
  const result = await validateFormInput({ name, fields }, mode);
  if (!result.value) {
    const errors = formInputErrors(
      result.errors,
      result.issues,
      rowOfField,
      fields.map((field) => field.id),
    );
    return { kind: 'invalid', editor: editorView(name, rows, errors) };
  }
  return { kind: 'valid', value: result.value, editor: editorView(name, rows) };
}
