// OpenAPI description of POST /api/submit/{formId}, written out with explicit decorators
// (the tests and the docs do not rely on the Swagger CLI plugin). Every status comes as JSON
// for scripts and as a small HTML page for a browser posting a form natively
// (submit-navigation.ts).
import { applyDecorators } from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiExtraModels,
  ApiOperation,
  ApiParam,
  ApiResponse,
  getSchemaPath,
  type ApiResponseOptions,
} from '@nestjs/swagger';
import { ErrorDto, ValidationErrorDto } from '../common/dto/error.dto.js';
import { SubmitResponseDto } from './dto/submit-response.dto.js';

export type HeadersObject = NonNullable<ApiResponseOptions['headers']>;

const integer = { type: 'integer' as const };

export const RESPONSE_HEADERS: HeadersObject = {
  'X-RateLimit-Limit': {
    description:
      'Submissions allowed per window from one client (SUBMIT_RATE_LIMIT).',
    schema: { ...integer, example: 10 },
  },
  'X-RateLimit-Remaining': {
    description: 'Submissions left in the current window.',
    schema: { ...integer, example: 9 },
  },
  'X-RateLimit-Reset': {
    description: 'Seconds until the current window resets.',
    schema: { ...integer, example: 60 },
  },
  'RateLimit-Policy': {
    description:
      'The quota policy (draft-ietf-httpapi-ratelimit-headers): quota `q` per window `w` seconds.',
    schema: { type: 'string', example: '"submit";q=10;w=60' },
  },
  RateLimit: {
    description:
      'The current state (draft-ietf-httpapi-ratelimit-headers): `r` remaining, reset in `t` seconds.',
    schema: { type: 'string', example: '"submit";r=9;t=60' },
  },
  'Access-Control-Allow-Origin': {
    description: 'Always `*`: any site may post (never with credentials).',
    schema: { type: 'string', example: '*' },
  },
};

type Model =
  typeof ErrorDto | typeof ValidationErrorDto | typeof SubmitResponseDto;

/** One status, as JSON for scripts and as an HTML page for a browser navigating. */
function answer(
  status: number,
  description: string,
  model: Model,
  example: object,
  page: string,
  headers: HeadersObject = RESPONSE_HEADERS,
): MethodDecorator {
  return ApiResponse({
    status,
    description,
    headers,
    content: {
      'application/json': { schema: { $ref: getSchemaPath(model) }, example },
      'text/html': {
        schema: { type: 'string' },
        example: `<!doctype html><html lang="en"><head><title>${page}</title>…</head><body><main><h1>${page}</h1>…</main></body></html>`,
      },
    },
  });
}

const error = (example: string) => ({ error: example });

export const RETRY_AFTER = (example: number): HeadersObject => ({
  ...RESPONSE_HEADERS,
  'Retry-After': {
    description: 'Seconds until a submission is accepted again.',
    schema: { ...integer, example },
  },
});

/** A submitted value: a string (form posts), or a JSON string, number, boolean or null. */
export const SUBMITTED_VALUE = {
  anyOf: [
    { type: 'string', nullable: true },
    { type: 'number' },
    { type: 'boolean' },
  ],
};

export function SubmitDocs(): MethodDecorator {
  return applyDecorators(
    ApiExtraModels(ErrorDto, ValidationErrorDto, SubmitResponseDto),
    ApiOperation({
      summary: 'Submit data to a form (public, CORS open, rate-limited per IP)',
      description: [
        'Post an HTML form (`application/x-www-form-urlencoded` or `multipart/form-data`, which',
        '`fetch` sends for `new FormData(form)`) or JSON. Keys must equal the',
        "form's field ids exactly (case included). Keys starting with `_` are control keys and",
        'are never stored; `_honeypot` is a spam trap: when it is filled the answer is the',
        'usual 200 but nothing is stored. Checks run in this order, the first failure wins:',
        'rate limit (429), unknown form (404), domain verification (403), honeypot,',
        "validation (400), the form's CAPTCHA (400, an entry starting `captcha:`), then the",
        'submission is stored before the 200 is sent — in the spam folder, unnotified, when the',
        "form's content rules catch it or the CAPTCHA provider does not answer (docs/spam.md).",
        "The CAPTCHA widgets' fields (`altcha`, `cf-turnstile-response`, `h-captcha-response`,",
        '`g-recaptcha-response`) are control fields too: never stored.',
        '',
        'Any origin may call this route from a browser: every response carries',
        '`Access-Control-Allow-Origin: *` and the rate-limit headers, which are exposed to',
        'scripts; the CORS preflight (`OPTIONS`) answers 204 and does not count.',
        '',
        'A browser navigating (a native form post: `Sec-Fetch-Mode: navigate`, or an `Accept`',
        'listing `text/html` first without `application/json`) with a form-encoded or multipart',
        'body gets the same statuses as small HTML pages instead of JSON: a thank-you page (the',
        "form's `successMessage`), the validation errors, or why the post was refused. When the",
        'form has a `redirectUrl`, a success answers **303** to it instead; a `_redirect` field',
        "overrides it only with a URL on redirectUrl's host or on a verified domain of the form.",
        'Every other client gets the JSON answers below.',
      ].join('\n'),
    }),
    ApiParam({
      name: 'formId',
      description: 'The form identifier shown in the dashboard.',
      schema: { type: 'string', minLength: 1, maxLength: 200 },
    }),
    ApiConsumes(
      'application/json',
      'application/x-www-form-urlencoded',
      'multipart/form-data',
    ),
    ApiBody({
      description:
        "A flat set of field id → value. Values are strings (form posts) or JSON strings, numbers, booleans or null; lists and objects are refused. Files go only in multipart bodies, only to fields of type `file` (streamed to storage, typed from their bytes; see the form's `maxSize`, `accept`, `maxFiles`).",
      schema: {
        type: 'object',
        additionalProperties: SUBMITTED_VALUE,
        example: {
          name: 'Ada Lovelace',
          email: 'ada@example.com',
          message: 'Hello!',
          _honeypot: '',
        },
      },
    }),
    answer(
      200,
      "Accepted and stored; also the answer when the honeypot is filled (then nothing is stored). A browser navigating gets the thank-you page (the form's `successMessage`).",
      SubmitResponseDto,
      { success: true, message: 'Submission received' },
      'Thank you!',
    ),
    ApiResponse({
      status: 303,
      description:
        'Only for a browser navigating (a native form post) to a form with a `redirectUrl`: the submission was accepted (or the honeypot caught it) and the browser is sent to `redirectUrl`, or to an allowed `_redirect`.',
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
      "Validation failed: one entry per problem, each naming the field (a file part for a field that takes none, a file of a type the field does not accept, an empty file, too many files, text for a `file` field), or the form's CAPTCHA answer missing, malformed, wrong, expired or already used (`captcha: …`). Also a malformed JSON or multipart body (`{error}` only). A browser navigating gets a page listing the problems.",
      ValidationErrorDto,
      {
        error: 'Validation failed',
        errors: ['name is required', 'email must be a valid email address'],
      },
      'Please check the form',
    ),
    answer(
      403,
      'The form has domain verification on and the request comes from a domain that is not verified.',
      ErrorDto,
      error('This form only accepts submissions from its verified domains'),
      'This site may not use this form',
    ),
    answer(
      404,
      'No form has this identifier.',
      ErrorDto,
      error('Form not found'),
      'This form does not exist',
    ),
    answer(
      408,
      'A multipart body carrying files to a form with `file` fields sent nothing for UPLOAD_IDLE_TIMEOUT_MS (15 s by default), or fell behind its deadline of 20 s plus 1 s per 500 bytes received ("The upload arrived too slowly: …"); answered with `Connection: close`, nothing of it kept.',
      ErrorDto,
      error('The request took too long to arrive'),
      'The upload stopped',
    ),
    answer(
      409,
      'Another request with the same `Idempotency-Key` is still being stored; retry after the given delay.',
      ErrorDto,
      error(
        'A request with this Idempotency-Key is still in progress: retry in a second',
      ),
      'Please try again shortly',
      RETRY_AFTER(1),
    ),
    answer(
      413,
      'The body is larger than SUBMIT_BODY_LIMIT (100 KiB by default), or, for a multipart body to a form with `file` fields, UPLOAD_BODY_LIMIT (25 MiB); or a file is larger than its field\'s `maxSize` (`{error: "File too large", errors: ["<field>: larger than N bytes"]}`, nothing of the submission kept).',
      ErrorDto,
      error('Request body is too large'),
      'Too much to send',
    ),
    answer(
      415,
      'Any content type but JSON, form-encoded and multipart (text/plain, XML…).',
      ErrorDto,
      error(
        'Unsupported content type: send application/json or application/x-www-form-urlencoded',
      ),
      'That kind of request is not accepted',
    ),
    answer(
      422,
      'The `Idempotency-Key` was already used (within 24 hours) with a different body.',
      ErrorDto,
      error(
        'This Idempotency-Key was already used with a different request (method, path or body)',
      ),
      'This request was already sent differently',
    ),
    answer(
      429,
      'More than SUBMIT_RATE_LIMIT submissions (10) per SUBMIT_RATE_WINDOW_SECONDS (60) from one IP address (IPv6: one /64); or, before its body is read, a multipart body to a form with `file` fields while the address already has UPLOAD_CONCURRENCY_PER_IP (4) in flight (`Retry-After: 1`).',
      ErrorDto,
      error(
        'Too many submissions: at most 10 per 60 seconds from one address. Retry in 42 seconds.',
      ),
      'Too many submissions',
      RETRY_AFTER(42),
    ),
    answer(
      503,
      'The database is unavailable, or too many submissions are waiting to be stored; retry after the given delay.',
      ErrorDto,
      error('Database unavailable, please retry shortly'),
      'Please try again shortly',
      RETRY_AFTER(5),
    ),
  );
}
