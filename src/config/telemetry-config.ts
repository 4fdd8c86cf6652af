// What the service tells its operators beyond logs (docs/operations.md): the Prometheus
// metrics listener and the OTLP/HTTP endpoint traces go to. Both are off unless set, and
// checked at boot like every setting.
import { isIP } from 'node:net';
import { ConfigError } from './config-error.js';
import { read, wholeNumber, type Env } from './env-values.js';

export interface TelemetryConfig {
  /** METRICS_PORT: where `GET /metrics` answers; undefined: no listener (0: any free port). */
  metricsPort: number | undefined;
  /** METRICS_HOST: the address the metrics listener binds to. */
  metricsHost: string;
  /** OTEL_EXPORTER_OTLP_ENDPOINT: the collector's base URL; undefined: no tracing. */
  otlpEndpoint: string | undefined;
}

function otlpEndpoint(env: Env): string | undefined {
  const name = 'OTEL_EXPORTER_OTLP_ENDPOINT';
  const raw = read(env, name);
  if (raw === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (
    !url ||
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    url.search !== '' ||
    url.hash !== ''
  ) {
    throw new ConfigError(
      name,
      `must be an http:// or https:// base URL (traces go to its /v1/traces), got "${raw}"`,
    );
  }
  let href = url.href;
  while (href.endsWith('/')) href = href.slice(0, -1);
  return href;
}

/** `publicPort`: PORT, which the metrics must never share. */
export function parseTelemetryConfig(
  env: Env,
  publicPort?: number,
): TelemetryConfig {
  const metricsHost = read(env, 'METRICS_HOST') ?? '127.0.0.1';
  if (isIP(metricsHost) === 0 && !/^[a-z0-9.-]+$/i.test(metricsHost)) {
    throw new ConfigError(
      'METRICS_HOST',
      `must be an IP address or host name, got "${metricsHost}"`,
    );
  }
  const port =
    read(env, 'METRICS_PORT') === undefined
      ? undefined
      : wholeNumber(env, 'METRICS_PORT', 0, 0, 65535);
  if (port !== undefined && port !== 0 && port === publicPort) {
    throw new ConfigError(
      'METRICS_PORT',
      `must differ from PORT (${port}): the metrics never share the public port`,
    );
  }
  return { metricsPort: port, metricsHost, otlpEndpoint: otlpEndpoint(env) };
}
