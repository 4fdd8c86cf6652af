// OpenAPI pieces shared by every route under /api/v1/forms/:id (forms, submissions, domains).
import { ErrorDto } from '../common/dto/error.dto.js';

export const FORM_ID_PARAM = {
  name: 'id',
  description: 'The form identifier.',
  example: 'q3Jv0cXh9S2mB7dLwEo4Tg',
};

export const FORM_NOT_FOUND_RESPONSE = {
  type: ErrorDto,
  description:
    'No such form, or the key may not reach it (a form key reaches only its own form).',
  example: { error: 'Form not found' },
};
