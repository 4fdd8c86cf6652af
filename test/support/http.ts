// A tiny HTTP client for the e2e tests: real requests over loopback with fetch.
// Tests read answer bodies loosely by default; a test that needs a type names it.
// oxlint-disable-next-line typescript/no-explicit-any
export interface HttpResponse<T = any> {
  status: number;
  headers: Headers;
  text: string;
  body: T;
}

export interface RequestOptions {
  method?: string;
  headers?: Record<string, string>;
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as application/x-www-form-urlencoded. */
  form?: Record<string, string> | Array<[string, string]>;
  /** Sent as is (set content-type yourself). */
  body?: string | Buffer;
  apiKey?: string;
}

// Tests read answer bodies loosely by default; a test that needs a type names it.
// oxlint-disable-next-line typescript/no-explicit-any
export async function request<T = any>(
  url: string,
  options: RequestOptions = {},
): Promise<HttpResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | Buffer | undefined = options.body;
  if (options.json !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.form !== undefined) {
    headers['content-type'] ??= 'application/x-www-form-urlencoded';
    body = new URLSearchParams(
      options.form as Record<string, string>,
    ).toString();
  }
  if (options.apiKey !== undefined) headers['x-api-key'] = options.apiKey;
  const response = await fetch(url, {
    method: options.method ?? (body === undefined ? 'GET' : 'POST'),
    headers,
    body:
      typeof body === 'string' || body === undefined
        ? body
        : new Uint8Array(body),
  });
  const text = await response.text();
  let parsed: unknown = undefined;
  // JSON and `+json` types; not NDJSON, which is many documents.
  const type = response.headers.get('content-type') ?? '';
  if (text && /^[\w.-]+\/(?:[\w.-]+\+)?json\b/.test(type)) {
    parsed = JSON.parse(text);
  }
  return {
    status: response.status,
    headers: response.headers,
    text,
    body: parsed as T,
  };
}
