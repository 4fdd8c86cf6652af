// The little of tracing the rest of the code sees (docs/operations.md, "Traces"). With
// OTEL_EXPORTER_OTLP_ENDPOINT unset the app holds NO_TRACING and no OpenTelemetry module is
// ever loaded; set, tracing.module.ts loads otel-tracing.ts, which speaks OpenTelemetry.

export type SpanAttributes = Record<string, string | number | boolean>;

export interface Span {
  /** Ends the span with these attributes; `failed` marks it as an error. */
  end(attributes?: SpanAttributes, failed?: boolean): void;
}

export interface Tracing {
  readonly enabled: boolean;
  /**
   * A server span of one HTTP request, named `<METHOD> <route>` (the method alone when no
   * route matched), the child of `traceparent` (W3C) when one is given and valid.
   */
  startHttp(
    method: string,
    route: string | undefined,
    traceparent: string | undefined,
  ): Span;
  /** A span of the service's own work (a commit batch, a delivery): a root of its own. */
  start(name: string, attributes?: SpanAttributes): Span;
  /** Sends what has ended so far. */
  flush(): Promise<void>;
  /** Sends what has ended and stops. */
  shutdown(): Promise<void>;
}

export const TRACING = Symbol('TRACING');

/** The attribute an HTTP span ends with (OpenTelemetry's HTTP conventions). */
export const HTTP_STATUS_CODE = 'http.response.status_code';

const NO_SPAN: Span = { end() {} };

export const NO_TRACING: Tracing = {
  enabled: false,
  startHttp: () => NO_SPAN,
  start: () => NO_SPAN,
  flush: () => Promise.resolve(),
  shutdown: () => Promise.resolve(),
};
