// OpenAPI description of the Formspree-compatible routes: POST /f/{formId} and its
// thank-you page GET /f/{formId}/thanks. Scripts get Formspree's JSON shapes; a browser
// posting natively gets the submit route's pages (submit-navigation.ts).
import { applyDecorators } from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiExtraModels,
  ApiHeader,
  ApiOperation,
  ApiParam,
  ApiProduces,
  ApiResponse,
  getSchemaPath,
} from '@nestjs/swagger';
import {
  RESPONSE_HEADERS,
  RETRY_AFTER,
  SUBMITTED_VALUE,
  type HeadersObject,
} from '../submit.openapi.js';
import {
  FormspreeErrorDto,
  FormspreeErrorEntryDto,
  FormspreeSuccessDto,
} from './formspree.dto.js';

const PAGE = (title: string) => ({
  schema: { type: 'string' },
  example: `<!doctype html><html lang="en"><head><title>${title}</title>…</head><body><main><h1>${title}</h1>…</main></body></html>`,
});

function answer(
  status: number,
  description: string,
  example: object,
  page: string,
  headers: HeadersObject = RESPONSE_HEADERS,
): MethodDecorator {
  const model = status < 300 ? FormspreeSuccessDto : FormspreeErrorDto;
  return ApiResponse({
    status,
    description,
    headers,
    content: {
      'application/json': { schema: { $ref: getSchemaPath(model) }, example },
      'text/html': PAGE(page),
    },
  });
}

const refusal = (message: string, code?: string) => ({
  error: message,
  errors: [code === undefined ? { message } : { code, message }],
});

/** The submit route's Idempotency-Key, on this route too (docs/lifecycle.md). */
const IDEMPOTENCY_KEY_HEADER = ApiHeader({
  name: 'Idempotency-Key',
  required: false,
  description:
    'Makes a retry safe, as on POST /api/submit/{formId}: a repeat with the same key and body within 24 hours answers the success again (with `Idempotent-Replayed: true`), decided before a CAPTCHA answer would be spent again, and stores nothing new. 1–255 printable ASCII characters; scoped to the form.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[ -~]+$' },
});

const REPLAYED: HeadersObject = {
  ...RESPONSE_HEADERS,
  'Idempotent-Replayed': {
    description:
      '`true` when this is the answer of an earlier request with the same Idempotency-Key.',
    schema: { type: 'string', enum: ['true'] },
  },
};

const FORM_ID_PARAM = ApiParam({
  name: 'formId',
  description: 'The form identifier shown in the dashboard.',
  schema: { type: 'string', minLength: 1, maxLength: 200 },
});

export function FormspreeSubmitDocs(): MethodDecorator {
  return applyDecorators(
    ApiExtraModels(
      FormspreeSuccessDto,
      FormspreeErrorDto,
      FormspreeErrorEntryDto,
    ),
    ApiOperation({
      summary:
        'Submit data to a form, Formspree-compatible (public, CORS open, rate-limited per IP)',
      description: [
        'The address to use instead of `https://formspree.io/f/<id>`: an HTML form',
        "`action`, or the `endpoint` of Formspree's client libraries (`@formspree/core`",
        '`submitForm(id, data, {endpoint})`). It runs exactly the checks of',
        '`POST /api/submit/{formId}` — the same rate limit (one budget for both routes),',
        'domain verification, honeypot, validation, CAPTCHA, spam rules, storage and',
        'notifications — and answers scripts in the shapes those libraries parse.',
        '',
        "Formspree's control fields: `_gotcha` is a honeypot (filled: the usual success, nothing",
        'stored); `_next` sends a navigating browser elsewhere after a success, on the same rules',
        "as `_redirect` (redirectUrl's host or a verified domain of the form, never anywhere",
        'else); `_subject` and `_replyto` shape the notification email; `_cc` and `_language`',
        'are ignored. None is stored.',
        '',
        'The CORS preflight (`OPTIONS`) answers 204 and allows the `Formspree-Client` and',
        '`Formspree-Session-Data` headers the client libraries send; every answer carries',
        '`Access-Control-Allow-Origin: *`.',
        '',
        'A browser navigating (a native form post) gets the pages of the submit route: a',
        'thank-you page, the validation errors, or why the post was refused; a **303** to',
        '`redirectUrl` (or an allowed `_next`) when the form has one. docs/formspree.md lists',
        'what is and is not compatible.',
      ].join('\n'),
    }),
    FORM_ID_PARAM,
    IDEMPOTENCY_KEY_HEADER,
    ApiConsumes(
      'application/json',
      'application/x-www-form-urlencoded',
      'multipart/form-data',
    ),
    ApiBody({
      description:
        'A flat set of field id → value, as for POST /api/submit/{formId}, with Formspree’s control fields.',
      schema: {
        type: 'object',
        additionalProperties: SUBMITTED_VALUE,
        example: {
          name: 'Ada Lovelace',
          email: 'ada@example.com',
          message: 'Hello!',
          _gotcha: '',
          _subject: 'A message from the site',
        },
      },
    }),
    answer(
      200,
      "Accepted and stored (also the answer when a honeypot is filled; then nothing is stored). `next` is the form's `redirectUrl`, else its thank-you page here. A browser navigating gets the thank-you page.",
      { ok: true, next: 'https://forms.example.com/f/a1b2c3/thanks' },
      'Thank you',
      REPLAYED,
    ),
    ApiResponse({
      status: 303,
      description:
        'Only for a browser navigating (a native form post) to a form with a `redirectUrl`: accepted, and sent to `redirectUrl` or an allowed `_next`.',
      headers: {
        ...RESPONSE_HEADERS,
        Location: {
          description: 'The redirect target.',
          schema: { type: 'string', example: 'https://www.example.com/thanks' },
        },
      },
    }),
    answer(
      400,
      'Validation failed: one entry per problem. A field’s problem names the `field` with REQUIRED_FIELD_MISSING (absent), REQUIRED_FIELD_EMPTY (blank), TYPE_EMAIL, TYPE_NUMERIC or TYPE_TEXT (anything else, a key that is not a field of the form included); a body without any field is one entry with code EMPTY; a CAPTCHA answer missing or wrong, a malformed body: an entry without a code.',
      {
        error: 'Validation failed',
        errors: [
          {
            field: 'name',
            code: 'REQUIRED_FIELD_MISSING',
            message: 'name is required',
          },
          {
            field: 'email',
            code: 'TYPE_EMAIL',
            message: 'email must be a valid email address',
          },
        ],
      },
      'Please check the form',
    ),
    answer(
      403,
      'The form has domain verification on and the request comes from a domain that is not verified (or names none): code BLOCKED.',
      refusal(
        'This form only accepts submissions from its verified domains',
        'BLOCKED',
      ),
      'This site may not use this form',
    ),
    answer(
      404,
      'No form has this identifier: code FORM_NOT_FOUND.',
      refusal('Form not found', 'FORM_NOT_FOUND'),
      'Form not found',
    ),
    answer(
      408,
      'A multipart body carrying files to a form with `file` fields sent nothing for UPLOAD_IDLE_TIMEOUT_MS (15 s by default), or fell behind its deadline of 20 s plus 1 s per 500 bytes received ("The upload arrived too slowly: …"); answered with `Connection: close`, nothing of it kept.',
      refusal('The request took too long to arrive'),
      'The upload stopped',
    ),
    answer(
      409,
      'Another request with the same `Idempotency-Key` is still being stored; retry after the given delay.',
      refusal(
        'A request with this Idempotency-Key is still in progress: retry in a second',
      ),
      'Please try again shortly',
      RETRY_AFTER(1),
    ),
    answer(
      413,
      'The body is larger than SUBMIT_BODY_LIMIT (100 KiB by default).',
      refusal('Request body is too large'),
      'Too much data',
    ),
    answer(
      415,
      'Any content type but JSON, form-encoded and multipart.',
      refusal(
        'Unsupported content type: send application/json or application/x-www-form-urlencoded',
      ),
      'Unsupported form',
    ),
    answer(
      422,
      'The `Idempotency-Key` was already used (within 24 hours) with a different body.',
      refusal(
        'This Idempotency-Key was already used with a different request (method, path or body)',
      ),
      'This request was already sent differently',
    ),
    answer(
      429,
      'More than SUBMIT_RATE_LIMIT submissions per SUBMIT_RATE_WINDOW_SECONDS from one IP address, counted together with POST /api/submit/{formId}; or, before its body is read, a multipart body to a form with `file` fields while the address already has UPLOAD_CONCURRENCY_PER_IP (4) in flight (`Retry-After: 1`).',
      refusal(
        'Too many submissions: at most 10 per 60 seconds from one address. Retry in 42 seconds.',
      ),
      'Too many submissions',
      RETRY_AFTER(42),
    ),
    answer(
      503,
      'The database is unavailable, or too many submissions are waiting to be stored; retry after the given delay.',
      refusal('Database unavailable, please retry shortly'),
      'Temporarily unavailable',
      RETRY_AFTER(5),
    ),
  );
}

export function FormspreeThanksDocs(): MethodDecorator {
  return applyDecorators(
    ApiOperation({
      summary: "A form's thank-you page (the `next` of the Formspree route)",
      description:
        "The page `POST /f/{formId}` names as `next` when the form has no `redirectUrl`: the form's `successMessage`, or a default thank-you.",
    }),
    FORM_ID_PARAM,
    ApiProduces('text/html'),
    ApiResponse({
      status: 200,
      description: 'The thank-you page.',
      content: { 'text/html': PAGE('Thank you') },
    }),
    ApiResponse({
      status: 404,
      description: 'No form has this identifier.',
      content: { 'text/html': PAGE('Form not found') },
    }),
    ApiResponse({
      status: 503,
      description: 'The database is unavailable; retry shortly.',
      content: { 'text/html': PAGE('Temporarily unavailable') },
    }),
  );
}
