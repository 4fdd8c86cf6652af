// Tracing through OpenTelemetry: spans are batched and sent to the collector over OTLP/HTTP
// (JSON, to `<endpoint>/v1/traces`). Loaded only when OTEL_EXPORTER_OTLP_ENDPOINT is set
// (tracing.module.ts); the provider is this app's own and never registered globally, so
// several apps in one process (the tests) keep their spans apart.
import {
  context,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Span as OtelSpan,
  type Tracer,
} from '@opentelemetry/api';
import { parseTraceParent } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import {
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_ROUTE,
  ATTR_SERVICE_NAME,
} from '@opentelemetry/semantic-conventions';
import type { Span, SpanAttributes, Tracing } from './tracing.js';

class OtelSpanHandle implements Span {
  constructor(private readonly span: OtelSpan) {}

  end(attributes?: SpanAttributes, failed?: boolean): void {
    if (attributes !== undefined) this.span.setAttributes(attributes);
    if (failed === true) this.span.setStatus({ code: SpanStatusCode.ERROR });
    this.span.end();
  }
}

export class OtelTracing implements Tracing {
  readonly enabled = true;
  private readonly provider: BasicTracerProvider;
  private readonly tracer: Tracer;

  constructor(endpoint: string) {
    this.provider = new BasicTracerProvider({
      resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: 'formgate' }),
      spanProcessors: [
        new BatchSpanProcessor(
          new OTLPTraceExporter({ url: `${endpoint}/v1/traces` }),
        ),
      ],
    });
    this.tracer = this.provider.getTracer('formgate');
  }

  startHttp(
    method: string,
    route: string | undefined,
    traceparent: string | undefined,
  ): Span {
    const remote =
      traceparent === undefined ? null : parseTraceParent(traceparent);
    const parent =
      remote === null
        ? ROOT_CONTEXT
        : trace.setSpanContext(ROOT_CONTEXT, { ...remote, isRemote: true });
    const span = this.tracer.startSpan(
      route === undefined ? method : `${method} ${route}`,
      {
        kind: SpanKind.SERVER,
        root: remote === null,
        attributes: {
          [ATTR_HTTP_REQUEST_METHOD]: method,
          ...(route === undefined ? {} : { [ATTR_HTTP_ROUTE]: route }),
        },
      },
      parent,
    );
    return new OtelSpanHandle(span);
  }

  start(name: string, attributes?: SpanAttributes): Span {
    return new OtelSpanHandle(
      this.tracer.startSpan(
        name,
        { kind: SpanKind.INTERNAL, root: true, attributes },
        context.active(),
      ),
    );
  }

  flush(): Promise<void> {
    return this.provider.forceFlush();
  }

  shutdown(): Promise<void> {
    return this.provider.shutdown();
  }
}
