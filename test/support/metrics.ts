// Reading an app's Prometheus metrics in the e2e tests: its listener's address (a test app
// sets METRICS_PORT=0, any free port), one scrape, and the value of one series.
import { MetricsServer } from '../../src/metrics/metrics-server.js';
import type { TestApp } from './test-app.js';

/** METRICS_PORT=0: the listener takes any free port; the test asks the app which. */
export const METRICS_ENV = { METRICS_PORT: '0' };

export async function metricsUrl(t: TestApp): Promise<string> {
  const address = await t.app.get(MetricsServer).address();
  if (address === undefined) throw new Error('the metrics listener is off');
  return `http://127.0.0.1:${address.port}/metrics`;
}

/** One scrape: series (`name{labels}`) → value; the text as served too. */
export interface Scrape {
  text: string;
  series: Map<string, number>;
  /** The value of `name` with exactly these labels (0 when absent: a counter not yet moved). */
  value(name: string, labels?: Record<string, string>): number;
  /** Whether a series of that name with these labels is present. */
  has(name: string, labels?: Record<string, string>): boolean;
  /** The series of one metric family (names starting with `name`), as served. */
  seriesOf(name: string): string[];
}

function key(name: string, labels: Record<string, string> = {}): string {
  const entries = Object.entries(labels).sort(([a], [b]) => a.localeCompare(b));
  if (entries.length === 0) return name;
  return `${name}{${entries.map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(',')}}`;
}

/** `name{b="2",a="1"}` → `name{a="1",b="2"}`, so a lookup need not know the served order. */
function normalise(series: string): string {
  const brace = series.indexOf('{');
  if (brace < 0) return series;
  const labels: Record<string, string> = {};
  for (const [, k, v] of series
    .slice(brace + 1, -1)
    .matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) {
    labels[k] = JSON.parse(`"${v}"`) as string;
  }
  return key(series.slice(0, brace), labels);
}

export function parseScrape(text: string): Scrape {
  const series = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const space = line.lastIndexOf(' ');
    series.set(normalise(line.slice(0, space)), Number(line.slice(space + 1)));
  }
  return {
    text,
    series,
    value: (name, labels) => series.get(key(name, labels)) ?? 0,
    has: (name, labels) => series.has(key(name, labels)),
    seriesOf: (name) =>
      [...series.keys()].filter(
        (s) =>
          s === name || s.startsWith(`${name}{`) || s.startsWith(`${name}_`),
      ),
  };
}

export async function scrape(t: TestApp): Promise<Scrape> {
  const response = await fetch(await metricsUrl(t));
  if (response.status !== 200) {
    throw new Error(`GET /metrics answered ${response.status}`);
  }
  return parseScrape(await response.text());
}
