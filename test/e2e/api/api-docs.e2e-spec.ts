// "Try it out" in Swagger UI, done the way Swagger UI does it: every parameter pre-filled
// with its documented example (or default), the path filled with a real form's ids. On a
// form that has submissions, every read route must then answer with that real data.
import { createAccount } from '../../factories/accounts.js';
import { storeFile } from '../../factories/files.js';
import { createForm, type TestForm } from '../../factories/forms.js';
import { at, insertSubmissions } from '../../factories/submissions.js';
import { request } from '../../support/http.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  example?: unknown;
  examples?: Record<string, { value: unknown }>;
  schema?: { example?: unknown; default?: unknown };
}

interface Operation {
  operationId: string;
  parameters?: Parameter[];
  /** Set on the routes only an account key may call. */
  'x-account-key-only'?: boolean;
  requestBody?: {
    content: Record<
      string,
      { example?: unknown; examples?: Record<string, { value: unknown }> }
    >;
  };
}

type Document = { paths: Record<string, Record<string, Operation>> };

/** What Swagger UI puts in a parameter's box when "Try it out" is pressed. */
function prefilled(parameter: Parameter): unknown {
  const first = parameter.examples
    ? Object.values(parameter.examples)[0]?.value
    : undefined;
  return (
    parameter.example ??
    first ??
    parameter.schema?.example ??
    parameter.schema?.default
  );
}

describe('API docs: Try it out (e2e)', () => {
  let t: TestApp;
  let document: Document;
  let form: TestForm;
  let accountKey: string;
  let submissionIds: string[];
  let webhookId: string;

  beforeAll(async () => {
    t = await createTestApp({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
    document = (await request<Document>(`${t.url}/docs-json`)).body;
    const { account, apiKey } = await createAccount(t);
    accountKey = apiKey;
    form = await createForm(t, account.id);
    // Submissions now and long ago: no example date range may hide either.
    const rows = await insertSubmissions(t, form.form.id, [
      { createdAt: at('2019-03-04T05:06:07.089Z') },
      { createdAt: new Date(Date.now() - 60_000) },
      { createdAt: new Date() },
    ]);
    submissionIds = rows.map((row) => row.id);
    const domain = await request(
      `${t.url}/api/v1/forms/${form.form.id}/domains`,
      {
        apiKey: form.apiKey,
        json: { domain: 'docs.example.com' },
      },
    );
    expect(domain.status).toBe(201);
    const webhook = await request(
      `${t.url}/api/v1/forms/${form.form.id}/webhooks`,
      {
        apiKey: form.apiKey,
        json: { url: 'http://127.0.0.1:9/hook', enabled: false },
      },
    );
    expect(webhook.status).toBe(201);
    webhookId = webhook.body.id as string;
  });
  afterAll(async () => {
    await t?.close();
  });

  function operations(): Array<[string, string, Operation]> {
    return Object.entries(document.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(
        ([method, op]) => [method, path, op] as [string, string, Operation],
      ),
    );
  }

  it('pre-fills no path parameter and no filter, so nothing points at data that does not exist', () => {
    const prefilledParameters = operations().flatMap(([method, path, op]) =>
      (op.parameters ?? [])
        .filter((parameter) => prefilled(parameter) !== undefined)
        .map(
          (parameter) =>
            `${method.toUpperCase()} ${path} ${parameter.in}:${parameter.name}=${JSON.stringify(prefilled(parameter))}`,
        ),
    );
    // Only the page size and the export format have a value to start from, and both
    // are the defaults the server applies anyway.
    expect(prefilledParameters.sort()).toEqual([
      'GET /api/v1/forms/{id}/deliveries query:limit=25',
      'GET /api/v1/forms/{id}/submissions query:limit=25',
      'GET /api/v1/forms/{id}/submissions/export query:format="csv"',
      'GET /api/v1/forms/{id}/webhooks/{webhookId}/deliveries query:limit=25',
    ]);
  });

  it('pre-fills PUT and PATCH of a form with a body that leaves its redirect and recipients alone', async () => {
    const writes = operations().filter(
      ([method, path]) =>
        path === '/api/v1/forms/{id}' &&
        (method === 'put' || method === 'patch'),
    );
    expect(writes.map(([method]) => method).sort()).toEqual(['patch', 'put']);
    for (const [method, path, op] of writes) {
      const media = op.requestBody!.content['application/json'];
      const body = media.examples
        ? Object.values(media.examples)[0].value
        : media.example;
      expect(body, `${method} ${path} has a body example`).toBeDefined();
      expect(body).not.toHaveProperty('redirectUrl');
      expect(body).not.toHaveProperty('notifyEmails');
      const res = await request(`${t.url}/api/v1/forms/${form.form.id}`, {
        method: method.toUpperCase(),
        apiKey: form.apiKey,
        json: body,
      });
      expect(res.status, `${method}: ${res.text}`).toBe(200);
      expect(res.body.redirectUrl).toBeNull();
      expect(res.body.notifyEmails).toEqual([]);
      expect(res.body.notifyEmailStatus).toEqual({});
    }
  });

  it('answers every read route with the real data of a form that has some', async () => {
    const file = await storeFile(t, {
      formId: form.form.id,
      submissionId: submissionIds[2],
      accountId: form.form.accountId,
    });
    const pathValues: Record<string, string> = {
      id: form.form.id,
      formId: form.form.id,
      submissionId: submissionIds[2],
      fileId: file.id,
      domain: 'docs.example.com',
      webhookId,
    };
    const reads = operations().filter(
      ([method, path]) => method === 'get' && path.startsWith('/api/v1/'),
    );
    expect(reads.length).toBeGreaterThanOrEqual(6);
    for (const [, path, op] of reads) {
      const url = new URL(
        path.replace(/\{(\w+)\}/g, (_, name: string) => pathValues[name]),
        t.url,
      );
      for (const parameter of op.parameters ?? []) {
        const value = prefilled(parameter);
        if (parameter.in === 'query' && value !== undefined) {
          url.searchParams.set(
            parameter.name,
            typeof value === 'string' ? value : JSON.stringify(value),
          );
        } else if (parameter.in === 'query' && parameter.required) {
          // What the reader types into a required box: the address the submissions hold.
          expect(parameter.name, path).toBe('email');
          url.searchParams.set(parameter.name, 'someone@example.com');
        }
      }
      // The reader authorizes with the key the route asks for.
      const apiKey = op['x-account-key-only'] ? accountKey : form.apiKey;
      const res = await request(url.toString(), { apiKey });
      expect(res.status, `${path}: ${res.text}`).toBe(200);
      if (path === '/api/v1/erasure/export') {
        const lines = res.text.trim().split('\n');
        expect(lines.map((line) => JSON.parse(line).id as string)).toEqual(
          submissionIds,
        );
      } else if (path === '/api/v1/account/keys') {
        expect(res.body.data.map((k: { name: string }) => k.name)).toEqual([
          'tests',
        ]);
      } else if (path.endsWith('/submissions')) {
        expect(res.body.data.map((s: { id: string }) => s.id)).toEqual(
          [...submissionIds].reverse(),
        );
      } else if (path === '/api/v1/account/audit-events/export') {
        // The account's audit log: the form and its key were made, one event each at least.
        const events = res.text
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as { action: string });
        expect(events.map((event) => event.action)).toContain('form.created');
        expect(res.headers.get('content-type')).toContain(
          'application/x-ndjson',
        );
      } else if (path.endsWith('/export')) {
        const lines = res.text.trim().split('\r\n');
        expect(lines).toHaveLength(4);
        expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      } else if (path.endsWith('{fileId}')) {
        expect(res.text).toBe('hello, file\n');
        expect(res.headers.get('content-disposition')).toBe(
          `attachment; filename="notes.txt"; filename*=UTF-8''notes.txt`,
        );
      } else if (path.endsWith('{submissionId}')) {
        expect(res.body.id).toBe(submissionIds[2]);
      } else if (path === '/api/v1/forms') {
        expect(res.body.data.map((f: { id: string }) => f.id)).toEqual([
          form.form.id,
        ]);
      } else if (path.endsWith('/webhooks')) {
        expect(res.body.data[0].id).toBe(webhookId);
      } else if (path.endsWith('{webhookId}')) {
        expect(res.body.url).toBe('http://127.0.0.1:9/hook');
      } else if (path.endsWith('/domains')) {
        expect(res.body.data[0].domain).toBe('docs.example.com');
      } else if (path === '/api/v1/forms/{id}') {
        expect(res.body.id).toBe(form.form.id);
      }
    }
  });
});
