// OpenAPI pieces shared by every route under /api/v1/forms/:id (forms, submissions, domains).
import { ErrorDto } from '../../common/dto/error.dto.js';

// Path parameters carry no example: Swagger UI would pre-fill it, and "Try it out" would
// then ask about a form that does not exist instead of the reader's own.
export const FORM_ID_PARAM = {
  name: 'id',
  description:
    'The form identifier: the `id` from `GET /api/v1/forms`, or Form ID in the dashboard.',
};

export const FORM_NOT_FOUND_RESPONSE = {
  type: ErrorDto,
  description:
    'No such form, or the key may not reach it (a form key reaches only its own form).',
  example: { error: 'Form not found' },
};
