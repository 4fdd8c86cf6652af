// What every route of a kind answers, added to the OpenAPI document in one place rather than
// on each route: a body route can always answer 400 (malformed JSON), 413 (too large) and
// 415 (not JSON); a key-protected route can always answer 503 while the database is away;
// a public route needs no key. Route-specific answers stay in each feature's *.openapi.ts.
import type { OpenAPIObject } from '@nestjs/swagger';
import { declareNullableObjects } from './openapi-nullable.js';

type Operation = NonNullable<OpenAPIObject['paths'][string]['get']>;
type Responses = Operation['responses'];

const ERROR_SCHEMA = { $ref: '#/components/schemas/ErrorDto' };

const RETRY_AFTER = {
  description: 'Seconds to wait before trying again.',
  schema: { type: 'integer', example: 5 },
};

function errorResponse(
  description: string,
  example: string,
  headers?: Record<string, unknown>,
): Responses[string] {
  return {
    description,
    ...(headers ? { headers } : {}),
    content: {
      'application/json': { schema: ERROR_SCHEMA, example: { error: example } },
    },
  } as Responses[string];
}

/** Only JSON is read under /api/v1 (see management-api-content.ts). */
export const MANAGEMENT_API_CONTENT_TYPE = 'application/json';

export const UNSUPPORTED_MANAGEMENT_TYPE_MESSAGE =
  'Unsupported content type: send application/json';

const BODY_RESPONSES: Record<string, Responses[string]> = {
  '400': errorResponse(
    'The body is not valid JSON, or not valid for this route.',
    'Request body is not valid JSON',
  ),
  '413': errorResponse(
    'The body is larger than SUBMIT_BODY_LIMIT (100 KiB by default).',
    'Request body is too large',
  ),
  '415': errorResponse(
    'The body is not `application/json` (form-encoded, multipart, text…).',
    UNSUPPORTED_MANAGEMENT_TYPE_MESSAGE,
  ),
};

const UNAVAILABLE = errorResponse(
  'The database is unreachable or did not answer in time; retry after the given delay.',
  'Database unavailable, please retry shortly',
  { 'Retry-After': RETRY_AFTER },
);

/** Idempotency-Key (idempotency-key.ts): the header and its answers, on every POST it applies to. */
const IDEMPOTENCY_PARAMETER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    "Makes a retry safe: a repeat with the same key and the same request within 24 hours answers the first 2xx answer again (with `Idempotent-Replayed: true`) and stores nothing new. 1–255 printable ASCII characters; scoped to the form (submit) or to the API key's form or account.",
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[ -~]+$' },
} as const;

const IDEMPOTENCY_RESPONSES: Record<string, Responses[string]> = {
  '409': errorResponse(
    'A request with the same Idempotency-Key is still in progress; retry after the given delay.',
    'A request with this Idempotency-Key is still in progress: retry in a second',
    {
      'Retry-After': {
        ...RETRY_AFTER,
        schema: { type: 'integer', example: 1 },
      },
    },
  ),
  '422': errorResponse(
    'The Idempotency-Key was already used with a different request (method, path or body).',
    'This Idempotency-Key was already used with a different request (method, path or body)',
  ),
};

const REPLAYED_HEADER = {
  description:
    '`true` when this is the kept answer of an earlier request with the same Idempotency-Key.',
  schema: { type: 'string', enum: ['true'] },
};

/** The POST routes that take an Idempotency-Key: submit and every POST of /api/v1. */
function takesIdempotencyKey(path: string, method: string): boolean {
  return (
    method === 'post' &&
    (path.startsWith('/api/v1/') || path === '/api/submit/{formId}')
  );
}

function addIdempotency(operation: Operation): void {
  const parameters = (operation.parameters ??= []);
  if (
    !parameters.some(
      (p) => 'name' in p && p.name === IDEMPOTENCY_PARAMETER.name,
    )
  ) {
    parameters.push({ ...IDEMPOTENCY_PARAMETER });
  }
  for (const [status, response] of Object.entries(IDEMPOTENCY_RESPONSES)) {
    const own = operation.responses[status];
    if (own === undefined) {
      operation.responses[status] = response;
    } else if (!('$ref' in own) && !('$ref' in response!)) {
      // The route's own answer with that status, and the Idempotency-Key's.
      own.description = `${own.description} Also: ${response!.description.charAt(0).toLowerCase()}${response!.description.slice(1)}`;
      own.headers = { ...response!.headers, ...own.headers };
    }
  }
  for (const [status, response] of Object.entries(operation.responses)) {
    if (!/^2\d\d$/.test(status) || !response || '$ref' in response) continue;
    response.headers = {
      ...response.headers,
      'Idempotent-Replayed': REPLAYED_HEADER,
    };
  }
}

function operationsOf(
  document: OpenAPIObject,
): Array<[path: string, operation: Operation, method: string]> {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    (['get', 'put', 'post', 'delete', 'patch', 'options', 'head'] as const)
      .filter((method) => item[method] !== undefined)
      .map(
        (method) =>
          [path, item[method] as Operation, method] as [
            string,
            Operation,
            string,
          ],
      ),
  );
}

/** Adds the answers every route of a kind gives, where a route does not declare its own. */
export function completeDocument(document: OpenAPIObject): OpenAPIObject {
  for (const [path, operation, method] of operationsOf(document)) {
    const responses = operation.responses;
    if (!operation.security) operation.security = [];
    if (takesIdempotencyKey(path, method)) addIdempotency(operation);
    if (!path.startsWith('/api/v1/')) continue;
    responses['503'] ??= UNAVAILABLE;
    if (operation.requestBody) {
      for (const [status, response] of Object.entries(BODY_RESPONSES)) {
        responses[status] ??= response;
      }
    }
  }
  declareNullableObjects(document);
  return document;
}
