// What the /api/v1/forms specs share: the keys of a Form, the answer a form gets, and
// helpers bound to the spec's test app (a getter, since the app starts in beforeAll).
import { createHash } from 'node:crypto';
import { CONTACT_FIELDS, type TestForm } from '../factories/forms.js';
import { request, type HttpResponse } from './http.js';
import { countRows, storedForm, type StoredForm } from './stored-rows.js';
import type { TestApp } from './test-app.js';

export const FORM_KEYS = [
  'id',
  'name',
  'fields',
  'domainVerification',
  'redirectUrl',
  'successMessage',
  'retentionDays',
  'notifyEmails',
  'notifyEmailStatus',
  'captcha',
  'autoresponse',
  'spamFilter',
  'notifyEmailErrors',
  'apiKeyPrefix',
  'apiKeyLastUsedAt',
  'previousApiKey',
  'createdAt',
  'updatedAt',
];
/** A form's native-post answer settings when none are set. */
export const NO_REDIRECT = { redirectUrl: null, successMessage: null };
/** A form's content rules when none were set. */
export const DEFAULT_SPAM_FILTER = {
  enabled: true,
  maxLinks: 5,
  blockedWords: [],
  duplicates: false,
};
export const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
export const NO_VERIFIED_DOMAIN =
  'Domain verification is on but no domain is verified yet: only development hosts (localhost, 127.0.0.1, 192.168.x.x) can submit.';

export const sha256 = (value: string) =>
  createHash('sha256').update(value).digest('hex');

export function formsApi(app: () => TestApp) {
  const forms = () => `${app().url}/api/v1/forms`;
  return {
    forms,
    formUrl: (id: string) => `${forms()}/${encodeURIComponent(id)}`,
    /** The row as the database holds it, normalised across SQLite and MariaDB. */
    stored: (id: string): Promise<StoredForm | undefined> =>
      storedForm(app(), id),
    countForms: (): Promise<number> => countRows(app(), 'form'),
    post: (apiKey: string, json: unknown): Promise<HttpResponse> =>
      request(forms(), { apiKey, json }),
  };
}

/**
 * A form as the forms API answers it: the settings of a form made without any, and
 * `answer` for its own (id, key prefix, times, and whatever else differs).
 */
export function formAnswer(
  answer: Record<string, unknown>,
): Record<string, unknown> {
  return {
    name: 'Contact',
    fields: CONTACT_FIELDS,
    domainVerification: false,
    ...NO_REDIRECT,
    retentionDays: null,
    notifyEmails: [],
    notifyEmailStatus: {},
    captcha: null,
    autoresponse: null,
    spamFilter: DEFAULT_SPAM_FILTER,
    notifyEmailErrors: {},
    apiKeyLastUsedAt: null,
    previousApiKey: null,
    ...answer,
  };
}

/**
 * Asserts the answer for a form made by the forms factory (test/factories/forms.ts):
 * exactly the keys of a Form, its own id, key prefix and times, the factory's settings
 * (named Contact, CONTACT_FIELDS), and `changes` where the spec expects others.
 */
export function expectFormAnswer(
  body: unknown,
  form: TestForm,
  changes: Record<string, unknown> = {},
): void {
  expect(Object.keys(body as object).sort()).toEqual([...FORM_KEYS].sort());
  expect(body).toEqual(
    formAnswer({
      id: form.form.id,
      apiKeyPrefix: form.apiKey.slice(0, 12),
      createdAt: form.form.createdAt.toISOString(),
      updatedAt: form.form.updatedAt.toISOString(),
      ...changes,
    }),
  );
}
