import type { FieldDefinition, Form } from '../../src/forms/form.entity.js';
import { FormsService } from '../../src/forms/forms.service.js';
import type { TestApp } from '../support/test-app.js';

export interface TestForm {
  form: Form;
  /** The form's own key (fgk_…). */
  apiKey: string;
}

export const CONTACT_FIELDS: FieldDefinition[] = [
  { id: 'name', type: 'text', label: 'Name', required: true },
  { id: 'email', type: 'email', label: 'Email', required: true },
  { id: 'message', type: 'textarea', label: 'Message' },
];

export function createForm(
  t: TestApp,
  accountId: string,
  input: {
    name?: string;
    fields?: FieldDefinition[];
    domainVerification?: boolean;
  } = {},
): Promise<TestForm> {
  return t.app.get(FormsService).create(accountId, {
    name: input.name ?? 'Contact',
    fields: input.fields ?? CONTACT_FIELDS,
    domainVerification: input.domainVerification ?? false,
  });
}
