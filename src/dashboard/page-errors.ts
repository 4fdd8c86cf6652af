// Errors of a submitted dashboard form: shown beside each field and summarised at the top.
import { ConflictException } from '@nestjs/common';
import {
  ValidationFailedException,
  type ErrorIssue,
} from '../common/errors/errors.js';
import { ownEntry } from '../common/values/own-entry.js';

export interface SummaryItem {
  text: string;
  /** The id of the input the message is about, for the summary's link. */
  href?: string;
}

export class PageErrors {
  readonly summary: SummaryItem[] = [];
  /** Message per input name (`email`, `f2.id`, ...); no prototype, so no name is built in. */
  readonly fields = Object.create(null) as Record<string, string>;

  /**
   * `field` is the input's name (its element id is derived the same way the templates do);
   * `inline` is the wording beside the field when it differs from the summary's.
   */
  add(text: string, field?: string, inline = text): this {
    if (field !== undefined) {
      const earlier = this.fields[field];
      this.fields[field] = earlier ? `${earlier}. ${inline}` : inline;
      this.summary.push({ text, href: `#${inputId(field)}` });
    } else {
      this.summary.push({ text });
    }
    return this;
  }

  get any(): boolean {
    return this.summary.length > 0;
  }
}

/** How a message of a refused change is worded on the page (a sentence by default). */
export type Wording = (
  message: string,
  issue: ErrorIssue | undefined,
) => string;

/**
 * Adds each message of a ValidationFailedException to `errors`, beside `field`. Any other
 * error is not the visitor's to fix: it is thrown on.
 */
export function addValidationErrors(
  errors: PageErrors,
  error: unknown,
  field: string,
  wording: Wording = sentence,
): PageErrors {
  if (!(error instanceof ValidationFailedException)) throw error;
  error.errors.forEach((message, index) =>
    errors.add(wording(message, error.issues?.[index]), field),
  );
  return errors;
}

/**
 * A refused change the visitor can fix, with the status the API answers it with: 400 and a
 * ValidationFailedException's messages, or 409 and a ConflictException's. Any other error
 * is not theirs to fix: it is thrown on.
 */
export function refusalOf(error: unknown): {
  status: 400 | 409;
  messages: string[];
} {
  if (error instanceof ValidationFailedException) {
    return { status: 400, messages: error.errors };
  }
  if (error instanceof ConflictException) {
    return { status: 409, messages: [error.message] };
  }
  throw error;
}

/** As addValidationErrors, and a ConflictException's message beside `field` too. */
export function addRefusal(
  errors: PageErrors,
  error: unknown,
  field: string,
  wording: Wording = sentence,
): PageErrors {
  if (error instanceof ConflictException) {
    return errors.add(error.message, field);
  }
  return addValidationErrors(errors, error, field, wording);
}

/** Element ids for input names: `f2.id` → `f2-id`. */
export function inputId(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, '-');
}

/** "password must be at least 10 characters long" → "Password must be at least …". */
export function sentence(message: string): string {
  return message.charAt(0).toUpperCase() + message.slice(1);
}

const PROPERTY_NAMES: Record<string, string> = {
  id: 'ID',
  label: 'Label',
  type: 'Type',
  required: 'Required',
  maxLength: 'Max length',
  options: 'Options',
  maxSize: 'Largest file',
  accept: 'Accepted formats',
  maxFiles: 'Files at most',
};

/** The path of a property: `fields.2.id` → ['fields', '2', 'id']. */
function pathOf(issue: ErrorIssue | undefined): string[] {
  return issue?.field === undefined ? [] : issue.field.split('.');
}

/**
 * Places the API's validation messages for a form body beside the dashboard's inputs, by
 * the property each is about (`issues`, parallel to `messages`). `rowOfField[i]` is the
 * editor row that became `fields[i]`.
 */
export function formInputErrors(
  messages: readonly string[],
  issues: readonly ErrorIssue[] | undefined,
  rowOfField: number[] = [],
  fieldIds: unknown[] = [],
): PageErrors {
  const errors = new PageErrors();
  messages.forEach((message, index) => {
    const issue = issues?.[index];
    const path = pathOf(issue);
    const [property, item, key] = path;
    if (issue?.code === 'uniqueFieldIds') {
      const seen = new Set<unknown>();
      fieldIds.forEach((id, at) => {
        if (seen.has(id)) {
          const row = rowOfField[at] ?? at;
          errors.add(
            `Field ${row + 1}: id "${String(id)}" is already used by another field`,
            `f${row}.id`,
            `ID "${String(id)}" is already used by another field`,
          );
        }
        seen.add(id);
      });
      return;
    }
    if (
      property === 'fields' &&
      item !== undefined &&
      path.length <= 3 &&
      issue?.detail !== undefined
    ) {
      const row = rowOfField[Number(item)] ?? Number(item);
      if (key === undefined) {
        errors.add(`Field ${row + 1}: ${issue.detail}`, `f${row}.id`);
      } else {
        errors.add(
          `Field ${row + 1}: ${key} ${issue.detail}`,
          `f${row}.${key}`,
          `${ownEntry(PROPERTY_NAMES, key) ?? key} ${issue.detail}`,
        );
      }
      return;
    }
    errors.add(sentence(message), property === 'name' ? 'name' : undefined);
  });
  return errors;
}
