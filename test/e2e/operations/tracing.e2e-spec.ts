// OpenTelemetry traces, with OTEL_EXPORTER_OTLP_ENDPOINT set (docs/operations.md): a loopback
// collector receives a submission's HTTP span (a root: the public route ignores the
// caller's traceparent, and its answer carries none), its commit batch, its webhook
// delivery, and an API call's span joined to the traceparent it came with.
import { TRACING, type Tracing } from '../../../src/tracing/tracing.js';
import { createAccount } from '../../factories/accounts.js';
import { createForm } from '../../factories/forms.js';
import { request } from '../../support/http.js';
import {
  startOtlpReceiver,
  type OtlpReceiver,
  type ReceivedSpan,
} from '../../support/otlp-receiver.js';
import { waitFor } from '../../support/server-process.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import {
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../support/webhook-receiver.js';

const CALLER_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN = '00f067aa0ba902b7';
const TRACEPARENT = `00-${CALLER_TRACE}-${CALLER_SPAN}-01`;
const SERVER = 2;

describe('traces (e2e)', () => {
  let collector: OtlpReceiver;
  let webhooks: WebhookReceiver;
  let t: TestApp;

  beforeAll(async () => {
    collector = await startOtlpReceiver();
    webhooks = await startWebhookReceiver();
    t = await createTestApp({
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
        WEBHOOK_ALLOW_PRIVATE: 'true',
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await webhooks.close();
    await collector.close();
  });

  /** Sends what has ended, then the spans named so, once the collector has them. */
  async function spansNamed(name: string, count = 1): Promise<ReceivedSpan[]> {
    const tracing = t.app.get<symbol, Tracing>(TRACING);
    await waitFor(
      async () => {
        await tracing.flush();
        return collector.spans.filter((s) => s.name === name).length >= count;
      },
      10_000,
      `${count} span(s) named ${name}`,
    );
    return collector.spans.filter((s) => s.name === name);
  }

  it("traces a submission from its request to its webhook, never joining the caller's trace", async () => {
    const { account } = await createAccount(t);
    const { form, apiKey } = await createForm(t, account.id);
    const hook = await request(`${t.url}/api/v1/forms/${form.id}/webhooks`, {
      apiKey,
      json: { url: webhooks.url },
    });
    expect(hook.status).toBe(201);
    webhooks.secrets.push(hook.body.secret as string);

    const answer = await request(`${t.url}/api/submit/${form.id}`, {
      json: { name: 'Ada', email: 'ada@example.com' },
      headers: { traceparent: TRACEPARENT },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('traceparent')).toBeNull();
    expect(answer.headers.get('tracestate')).toBeNull();
    await webhooks.waitForSuccesses(1);

    const [submitted] = await spansNamed('POST /api/submit/:formId');
    expect(submitted.parentSpanId).toBeUndefined();
    expect(submitted.traceId).not.toBe(CALLER_TRACE);
    expect(submitted.kind).toBe(SERVER);
    expect(submitted.service).toBe('formgate');
    expect(submitted.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.route': '/api/submit/:formId',
      'http.response.status_code': 200,
    });
    // No span carries the form's id or what the visitor typed.
    for (const span of collector.spans) {
      expect(JSON.stringify(span)).not.toContain('ada@example.com');
    }

    const [batch] = await spansNamed('formgate.commit_batch');
    expect(batch.parentSpanId).toBeUndefined();
    expect(batch.attributes['formgate.batch.size']).toBe(1);

    const [delivery] = await spansNamed('formgate.delivery');
    expect(delivery.attributes).toMatchObject({
      'formgate.channel': 'webhook',
      'formgate.delivered': true,
      'http.response.status_code': 200,
    });

    expect(collector.requests[0].path).toBe('/v1/traces');
    expect(collector.requests[0].headers['content-type']).toBe(
      'application/json',
    );
  });

  it('joins an API call to the trace its traceparent names', async () => {
    const owner = await createAccount(t);
    const listed = await request(`${t.url}/api/v1/forms`, {
      apiKey: owner.apiKey,
      headers: { traceparent: TRACEPARENT },
    });
    expect(listed.status).toBe(200);
    expect(listed.headers.get('traceparent')).toBeNull();

    const [call] = await spansNamed('GET /api/v1/forms');
    expect(call.traceId).toBe(CALLER_TRACE);
    expect(call.parentSpanId).toBe(CALLER_SPAN);
    expect(call.kind).toBe(SERVER);
    expect(call.attributes).toMatchObject({
      'http.request.method': 'GET',
      'http.route': '/api/v1/forms',
      'http.response.status_code': 200,
    });
  });

  it('starts a trace of its own for an API call without a valid traceparent', async () => {
    const owner = await createAccount(t);
    const before = collector.spans.length;
    const res = await request(`${t.url}/api/v1/forms?limit=5`, {
      apiKey: owner.apiKey,
      headers: { traceparent: 'not-a-traceparent' },
    });
    expect(res.status).toBe(200);
    const spans = await spansNamed('GET /api/v1/forms', 2);
    const call = spans.find((s) => collector.spans.indexOf(s) >= before)!;
    expect(call.parentSpanId).toBeUndefined();
    expect(call.traceId).not.toBe(CALLER_TRACE);
  });
});
