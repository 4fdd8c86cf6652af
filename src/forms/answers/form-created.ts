// What creating a form answers beyond the form: its key once, the warning a form key's
// creation carries, and the refusal past the account's cap.
import type { Form } from '../form.entity.js';

/** A form created with a form key: that key will not reach it. */
export const FORM_KEY_CREATED_WARNING =
  'This form has its own API key (apiKey): the form key used to create it cannot read or change it. Keep the new key, or manage both forms with an account key.';

export function tooManyFormsMessage(max: number): string {
  return `This account already has ${max} forms, the most it can have: delete one before creating another`;
}

export interface CreatedForm {
  form: Form;
  /** The full key, returned once at creation (the dashboard can decrypt it later). */
  apiKey: string;
}
