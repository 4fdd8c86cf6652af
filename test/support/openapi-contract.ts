// The contract between the service and its OpenAPI document (/docs-json): every response a
// test app sends on a documented route must be declared there — its status, its content type
// and, for JSON, a body matching the declared schema. The test app records each response
// (test-app.ts) and checks them all when it closes, so an e2e test that receives something the
// document does not promise fails, with a message naming the route, status and content type
// to declare in the route's *.openapi.ts.
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

export interface RecordedResponse {
  method: string;
  /** The request's path, without the query. */
  path: string;
  status: number;
  /** The media type only (no parameters), or '' when none was sent. */
  contentType: string;
  /** The body as sent, or undefined when it was streamed (not checked against a schema). */
  body: string | undefined;
}

interface MediaTypeObject {
  schema?: unknown;
}
interface ResponseObject {
  content?: Record<string, MediaTypeObject>;
}
interface OperationObject {
  responses: Record<string, ResponseObject>;
}
export interface OpenApiDocument {
  paths: Record<string, Record<string, OperationObject>>;
  components?: { schemas?: Record<string, unknown> };
}

/** Paths whose every route must be in the document (the rest: dashboard, static files). */
const DOCUMENTED_PREFIXES = ['/api/', '/health/', '/f/', '/files/'];

interface PathMatcher {
  template: string;
  pattern: RegExp;
  /** More literal segments win: `/submissions/export` over `/submissions/{submissionId}`. */
  literals: number;
}

function matcherOf(template: string): PathMatcher {
  const segments = template.split('/');
  const source = segments
    .map((segment) =>
      /^\{[^}]+\}$/.test(segment)
        ? '[^/]+'
        : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('/');
  return {
    template,
    pattern: new RegExp(`^${source}/?$`),
    literals: segments.filter((s) => !s.startsWith('{')).length,
  };
}

/**
 * An OpenAPI 3.0 schema as JSON Schema for Ajv, read as strictly as the 3.0.3 text: `nullable:
 * true` adds null to the `type` beside it and nothing else, so a nullable `allOf: [$ref]`
 * still refuses null (its referenced object does). A generated client reads it the same way;
 * the document must spell "this object, or null" so that null passes every subschema.
 */
function jsonSchemaOf(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(jsonSchemaOf);
  if (schema === null || typeof schema !== 'object') return schema;
  const converted: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    converted[key] = jsonSchemaOf(value);
  }
  if (converted.nullable === true && typeof converted.type === 'string') {
    converted.type = [converted.type, 'null'];
  }
  delete converted.nullable;
  return converted;
}

export class OpenApiContract {
  private readonly ajv: Ajv;
  private readonly matchers: PathMatcher[];
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(private readonly document: OpenApiDocument) {
    // OpenAPI 3.0 schemas: `nullable`, `example` and friends are not JSON Schema keywords.
    this.ajv = new Ajv({ strict: false, allErrors: true });
    addFormats.default(this.ajv);
    this.ajv.addKeyword({ keyword: 'example' });
    this.ajv.addSchema(
      {
        $id: 'openapi',
        components: jsonSchemaOf(document.components ?? {}) as object,
      },
      'openapi',
    );
    this.matchers = Object.keys(document.paths)
      .map(matcherOf)
      .sort((a, b) => b.literals - a.literals);
  }

  private templateOf(path: string): string | undefined {
    return this.matchers.find((m) => m.pattern.test(path))?.template;
  }

  private validatorFor(key: string, schema: unknown): ValidateFunction {
    let validate = this.validators.get(key);
    if (!validate) {
      const local = JSON.parse(
        JSON.stringify(jsonSchemaOf(schema)).replaceAll(
          '"#/components/',
          '"openapi#/components/',
        ),
      ) as object;
      validate = this.ajv.compile(local);
      this.validators.set(key, validate);
    }
    return validate;
  }

  /** What is wrong with one response, or undefined when the document declares it. */
  violationOf(response: RecordedResponse): string | undefined {
    const { path, status, contentType, body } = response;
    if (!DOCUMENTED_PREFIXES.some((prefix) => path.startsWith(prefix))) {
      return undefined;
    }
    const method =
      response.method === 'HEAD' ? 'get' : response.method.toLowerCase();
    const template = this.templateOf(path);
    // The router's "no such route" answer belongs to no operation.
    if (template === undefined) {
      return status === 404
        ? undefined
        : `${response.method} ${path} answered ${status}, but no path of /docs-json matches it: declare the route (an @Api… decorator in its *.openapi.ts)`;
    }
    const operation = this.document.paths[template][method];
    // CORS preflights, and the 405 a method the path does not take gets, are the server's
    // transport, not operations of the API.
    if (!operation && (method === 'options' || status === 405)) {
      return undefined;
    }
    if (!operation) {
      return `${response.method} ${template} answered ${status}, but /docs-json has no ${method.toUpperCase()} operation on that path: declare it`;
    }
    const route = `${method.toUpperCase()} ${template}`;
    const declared = operation.responses[String(status)];
    if (!declared) {
      return `${route} answered ${status} ${contentType || '(no content type)'}, which /docs-json does not declare (it declares ${Object.keys(operation.responses).join(', ')}): add the status to the route's *.openapi.ts`;
    }
    const content = declared.content ?? {};
    const types = Object.keys(content);
    if (response.method === 'HEAD' || (body === '' && types.length === 0)) {
      return undefined;
    }
    if (!contentType) {
      return types.length === 0
        ? undefined
        : `${route} answered ${status} without a content type, but /docs-json declares ${types.join(', ')}`;
    }
    const media = content[contentType];
    if (!media) {
      return `${route} answered ${status} as ${contentType}, which /docs-json does not declare for that status (it declares ${types.join(', ') || 'no body'}): add the content type to the route's *.openapi.ts`;
    }
    if (body === undefined || media.schema === undefined) return undefined;
    if (
      !contentType.endsWith('json') ||
      contentType === 'application/x-ndjson'
    ) {
      return undefined;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return `${route} answered ${status} as ${contentType} with a body that is not JSON: ${body.slice(0, 200)}`;
    }
    const validate = this.validatorFor(
      `${route} ${status} ${contentType}`,
      media.schema,
    );
    if (validate(parsed)) return undefined;
    const problems = (validate.errors ?? [])
      .map((e) => `${e.instancePath || '(body)'} ${e.message ?? ''}`.trim())
      .join('; ');
    return `${route} answered ${status} ${contentType} with a body that does not match its schema in /docs-json (${problems}): ${body.slice(0, 300)}`;
  }

  /** Every distinct violation among `responses`. */
  violations(responses: Iterable<RecordedResponse>): string[] {
    const found = new Set<string>();
    for (const response of responses) {
      const violation = this.violationOf(response);
      if (violation) found.add(violation);
    }
    return [...found];
  }
}
