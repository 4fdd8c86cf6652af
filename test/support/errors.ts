// The error bodies the specs expect, written once: every failure answers `{ error }`
// (validation failures add `errors`), so a spec compares the whole body.

export function errorBody(error: string, errors?: string[]) {
  return errors === undefined ? { error } : { error, errors };
}

export const FORM_NOT_FOUND = errorBody('Form not found');
export const SUBMISSION_NOT_FOUND = errorBody('Submission not found');
export const DOMAIN_NOT_FOUND = errorBody('Domain not found');
export const INVALID_API_KEY = errorBody('Invalid API key');
export const API_KEY_REQUIRED = errorBody(
  'API key required: send it in the x-api-key header or the apiKey query parameter',
);
export const BODY_TOO_LARGE = errorBody('Request body is too large');
export const INVALID_JSON = errorBody('Request body is not valid JSON');
