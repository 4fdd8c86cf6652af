import { ConfigError } from './config-error.js';
import { parseTelemetryConfig } from './telemetry-config.js';

function errorFor(env: Record<string, string>): ConfigError {
  try {
    parseTelemetryConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('parseTelemetryConfig', () => {
  it('is off by default, and would listen on loopback', () => {
    expect(parseTelemetryConfig({})).toEqual({
      metricsPort: undefined,
      metricsHost: '127.0.0.1',
      otlpEndpoint: undefined,
    });
  });

  it('reads the metrics listener and the collector endpoint', () => {
    expect(
      parseTelemetryConfig({
        METRICS_PORT: '9464',
        METRICS_HOST: '0.0.0.0',
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/',
      }),
    ).toEqual({
      metricsPort: 9464,
      metricsHost: '0.0.0.0',
      otlpEndpoint: 'http://collector:4318',
    });
  });

  it('refuses the public port for the metrics', () => {
    expect(() => parseTelemetryConfig({ METRICS_PORT: '3000' }, 3000)).toThrow(
      'Invalid configuration: METRICS_PORT must differ from PORT (3000): the metrics never share the public port',
    );
    expect(parseTelemetryConfig({ METRICS_PORT: '0' }, 0).metricsPort).toBe(0);
  });

  it.each([
    [{ METRICS_PORT: '70000' }, 'METRICS_PORT'],
    [{ METRICS_PORT: 'nine' }, 'METRICS_PORT'],
    [{ METRICS_HOST: 'not a host' }, 'METRICS_HOST'],
    [
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' },
      'OTEL_EXPORTER_OTLP_ENDPOINT',
    ],
    [
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'ftp://collector' },
      'OTEL_EXPORTER_OTLP_ENDPOINT',
    ],
  ])('refuses %o, naming %s', (env, variable) => {
    expect(errorFor(env).variable).toBe(variable);
  });
});
