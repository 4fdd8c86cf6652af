// What every route of a kind answers, added to the OpenAPI document in one place rather than
// on each route: a body route can always answer 400 (malformed JSON), 413 (too large) and
// 415 (not JSON); a key-protected route can always answer 503 while the database is away;
// a public route needs no key. Route-specific answers stay in each feature's *.openapi.ts.
import type { OpenAPIObject } from '@nestjs/swagger';

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

function operationsOf(
  document: OpenAPIObject,
): Array<[path: string, operation: Operation]> {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    (['get', 'put', 'post', 'delete', 'patch', 'options', 'head'] as const)
      .map((method) => item[method])
      .filter((op): op is Operation => op !== undefined)
      .map((op) => [path, op] as [string, Operation]),
  );
}

/** Adds the answers every route of a kind gives, where a route does not declare its own. */
export function completeDocument(document: OpenAPIObject): OpenAPIObject {
  for (const [path, operation] of operationsOf(document)) {
    const responses = operation.responses;
    if (!operation.security) operation.security = [];
    if (!path.startsWith('/api/v1/')) continue;
    responses['503'] ??= UNAVAILABLE;
    if (operation.requestBody) {
      for (const [status, response] of Object.entries(BODY_RESPONSES)) {
        responses[status] ??= response;
      }
    }
  }
  return document;
}
