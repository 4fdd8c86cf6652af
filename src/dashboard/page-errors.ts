// Errors of a submitted dashboard form: shown beside each field and summarised at the top.
import { ownEntry } from '../common/own-entry.js';

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

/**
 * Places the API's validation messages for a form body beside the dashboard's inputs.
 * `rowOfField[i]` is the editor row that became `fields[i]`.
 */
export function formInputErrors(
  messages: string[],
  rowOfField: number[] = [],
  fieldIds: unknown[] = [],
): PageErrors {
  const errors = new PageErrors();
  for (const message of messages) {
    if (message.startsWith('fields must have unique ids')) {
      const seen = new Set<unknown>();
      fieldIds.forEach((id, index) => {
        if (seen.has(id)) {
          const row = rowOfField[index] ?? index;
          errors.add(
            `Field ${row + 1}: id "${String(id)}" is already used by another field`,
            `f${row}.id`,
            `ID "${String(id)}" is already used by another field`,
          );
        }
        seen.add(id);
      });
      continue;
    }
    const field = /^fields\.(\d+)\.(\w+) (.*)$/.exec(message);
    if (field) {
      const row = rowOfField[Number(field[1])] ?? Number(field[1]);
      const property = field[2];
      errors.add(
        `Field ${row + 1}: ${property} ${field[3]}`,
        `f${row}.${property}`,
        `${ownEntry(PROPERTY_NAMES, property) ?? property} ${field[3]}`,
      );
      continue;
    }
    const whole = /^fields\.(\d+) (.*)$/.exec(message);
    if (whole) {
      const row = rowOfField[Number(whole[1])] ?? Number(whole[1]);
      errors.add(`Field ${row + 1}: ${whole[2]}`, `f${row}.id`);
      continue;
    }
    if (message.startsWith('name ')) {
      errors.add(sentence(message), 'name');
      continue;
    }
    errors.add(sentence(message));
  }
  return errors;
}
