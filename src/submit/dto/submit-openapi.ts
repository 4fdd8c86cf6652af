// OpenAPI description of POST /api/submit/{formId}, written out with explicit decorators
// (the tests and the docs do not rely on the Swagger CLI plugin).
import { applyDecorators } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiConsumes,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiPayloadTooLargeResponse,
  ApiResponse,
  ApiTooManyRequestsResponse,
  ApiUnsupportedMediaTypeResponse,
  type ApiResponseOptions,
} from '@nestjs/swagger';
import { ErrorDto, ValidationErrorDto } from '../../common/dto/error.dto.js';
import { SubmitResponseDto } from './submit-response.dto.js';

type HeadersObject = NonNullable<ApiResponseOptions['headers']>;

const integer = { type: 'integer' as const };

const RESPONSE_HEADERS: HeadersObject = {
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

const error = (example: string) => ({
  type: ErrorDto,
  example: { error: example },
});

export function ApiSubmitRoute(): MethodDecorator {
  return applyDecorators(
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
    }),
    ApiConsumes(
      'application/json',
      'application/x-www-form-urlencoded',
      'multipart/form-data',
    ),
    ApiBody({
      description:
        'A flat set of field id → value. Values are strings (form posts) or JSON strings, numbers, booleans or null; lists, objects and file parts are refused.',
      schema: {
        type: 'object',
        additionalProperties: {
          oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }],
          nullable: true,
        },
        example: {
          name: 'Ada Lovelace',
          email: 'ada@example.com',
          message: 'Hello!',
          _honeypot: '',
        },
      },
    }),
    ApiOkResponse({
      description:
        'Accepted and stored; also the answer when the honeypot is filled (then nothing is stored).',
      type: SubmitResponseDto,
      example: { success: true, message: 'Submission received' },
      headers: RESPONSE_HEADERS,
    }),
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
    ApiBadRequestResponse({
      description:
        "Validation failed: one entry per problem, each naming the field (a file part: `<name>: file uploads are not accepted`), or the form's CAPTCHA answer missing, malformed, wrong, expired or already used (`captcha: …`). Also a malformed JSON or multipart body (`{error}` only).",
      type: ValidationErrorDto,
      example: {
        error: 'Validation failed',
        errors: ['name is required', 'email must be a valid email address'],
      },
      headers: RESPONSE_HEADERS,
    }),
    ApiForbiddenResponse({
      description:
        'The form has domain verification on and the request comes from a domain that is not verified.',
      ...error('This form only accepts submissions from its verified domains'),
      headers: RESPONSE_HEADERS,
    }),
    ApiNotFoundResponse({
      description: 'No form has this identifier.',
      ...error('Form not found'),
      headers: RESPONSE_HEADERS,
    }),
    ApiPayloadTooLargeResponse({
      description:
        'The body is larger than SUBMIT_BODY_LIMIT (100 KiB by default).',
      ...error('Request body is too large'),
      headers: RESPONSE_HEADERS,
    }),
    ApiUnsupportedMediaTypeResponse({
      description:
        'Any content type but JSON, form-encoded and multipart (text/plain, XML…).',
      ...error(
        'Unsupported content type: send application/json or application/x-www-form-urlencoded',
      ),
      headers: RESPONSE_HEADERS,
    }),
    ApiTooManyRequestsResponse({
      description:
        'More than SUBMIT_RATE_LIMIT submissions (10) per SUBMIT_RATE_WINDOW_SECONDS (60) from one IP address (IPv6: one /64).',
      ...error(
        'Too many submissions: at most 10 per 60 seconds from one address. Retry in 42 seconds.',
      ),
      headers: {
        ...RESPONSE_HEADERS,
        'Retry-After': {
          description: 'Seconds until a submission is accepted again.',
          schema: { ...integer, example: 42 },
        },
      },
    }),
    ApiResponse({
      status: 503,
      description: 'The database is unavailable; retry after the given delay.',
      ...error('Database unavailable, please retry shortly'),
      headers: {
        ...RESPONSE_HEADERS,
        'Retry-After': { schema: { ...integer, example: 5 } },
      },
    }),
  );
}
