// The series Formgate exposes to Prometheus (docs/operations.md), in a registry of the
// app's own: tests boot several apps in one process, and the default registry is global.
// Series on the request path are cells bound to their labels once, so counting is an
// addition (hot-series.ts); gauges of state (queue depth, backlog, the database) are read when scraped,
// from the sources the features register here. No label holds an id, an address or
// anything a visitor sent: every label value comes from a short fixed list or a route
// pattern.
import {
  collectDefaultMetrics,
  Counter,
  Gauge,
  Histogram,
  Registry,
} from 'prom-client';
import { withDeadline } from './deadline.js';
import {
  HotCounter,
  HotHistogram,
  type CounterCell,
  type HistogramCell,
} from './hot-series.js';

export const SUBMISSION_OUTCOMES = [
  'accepted',
  'spam',
  'honeypot',
  'invalid',
  'forbidden',
  'not_found',
  'rate_limited',
  'unavailable',
] as const;
export type SubmissionOutcome = (typeof SUBMISSION_OUTCOMES)[number];

/** One route's submission counters, by outcome. */
export type SubmissionCounters = Readonly<
  Record<SubmissionOutcome, Counter.Internal>
>;

/** The states an attempt leaves a delivery in (notifications/deliveries/delivery.entity.ts). */
export const DELIVERY_OUTCOMES = ['succeeded', 'failed', 'dead'] as const;

/** The label of a request no route matched. */
export const UNMATCHED_ROUTE = 'unmatched';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'];
/** A gauge read at scrape time gives up after this long (Prometheus waits 10 s by default). */
export const SCRAPE_DEADLINE_MS = 2000;

/** Node's totals of handles, requests and resources: gauges, yet ending in `_total`. */
const MISNAMED_PROCESS_GAUGES = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
];

/** Deliveries waiting to be sent, by channel (every channel named, 0 included). */
export type BacklogSource = () => Promise<ReadonlyMap<string, number>>;

/** The duration histogram's children of one route, by method and status class. */
export class HttpRouteSeries {
  private readonly children: Array<HistogramCell | undefined> = [];

  constructor(
    private readonly histogram: HotHistogram,
    private readonly route: string,
  ) {}

  observe(method: string, statusCode: number, seconds: number): void {
    let m = METHODS.indexOf(method);
    if (m < 0) m = METHODS.length;
    const c = Math.min(Math.max(Math.floor(statusCode / 100), 1), 5) - 1;
    const at = m * STATUS_CLASSES.length + c;
    let child = this.children[at];
    if (child === undefined) {
      child = this.histogram.cell({
        route: this.route,
        method: METHODS[m] ?? 'other',
        status_class: STATUS_CLASSES[c],
      });
      this.children[at] = child;
    }
    child.observe(seconds);
  }
}

export interface MetricsOptions {
  /**
   * Whether this process serves its metrics (METRICS_PORT): only then are requests timed
   * and Node's process metrics (event-loop lag, heap, GC) collected.
   */
  exposed: boolean;
  /** Whether the database answers a trivial query in time. */
  databaseUp: () => Promise<boolean>;
}

export class Metrics {
  readonly registry = new Registry();
  readonly exposed: boolean;
  private readonly submissions: HotCounter<'route' | 'outcome'>;
  private readonly batchSizes: Histogram;
  private readonly httpDurations: HotHistogram;
  private readonly deliveries: Counter<'channel' | 'outcome'>;
  private readonly deliveryLag: Histogram;
  private readonly sweepRuns: Counter<'sweep' | 'outcome'>;
  private readonly httpRoutes = new Map<string, HttpRouteSeries>();
  private queueDepth: () => number = () => 0;
  private backlog: BacklogSource | undefined;
  private outboxEvents: (() => Promise<number>) | undefined;

  constructor(options: MetricsOptions) {
    const registers = [this.registry];
    this.submissions = new HotCounter({
      name: 'formgate_submissions_total',
      help: 'Posts to the public submit routes, by route and what became of them.',
      labelNames: ['route', 'outcome'],
      registers,
    });
    this.batchSizes = new Histogram({
      name: 'formgate_commit_batch_size',
      help: 'Submissions (and honeypot hits) per batch the commit queue wrote.',
      buckets: [1, 2, 5, 10, 20, 50, 100, 200, 500],
      registers,
    });
    const depth = () => this.queueDepth();
    new Gauge({
      name: 'formgate_commit_queue_depth',
      help: 'Submissions waiting for the commit queue to write them.',
      registers,
      collect() {
        this.set(depth());
      },
    });
    this.httpDurations = new HotHistogram(
      'formgate_http_request_duration_seconds',
      'Time from a request arriving to its answer being sent, by route pattern.',
      [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      this.registry,
    );
    this.deliveries = new Counter({
      name: 'formgate_deliveries_total',
      help: 'Notification attempts, by channel and the state they left the delivery in.',
      labelNames: ['channel', 'outcome'],
      registers,
    });
    const backlog = () => this.backlog;
    new Gauge({
      name: 'formgate_delivery_backlog',
      help: 'Deliveries waiting to be sent or retried, by channel (counted up to 10000).',
      labelNames: ['channel'],
      registers,
      async collect() {
        const source = backlog();
        if (source === undefined) return;
        const counts = await withDeadline(source(), SCRAPE_DEADLINE_MS).catch(
          () => undefined,
        );
        // Unknown rather than stale while the database does not answer.
        this.reset();
        for (const [channel, count] of counts ?? []) {
          this.labels(channel).set(count);
        }
      },
    });
    const outboxEvents = () => this.outboxEvents;
    new Gauge({
      name: 'formgate_outbox_events_waiting',
      help: 'Commit batches whose notifications are not yet made into deliveries (counted up to 10000).',
      registers,
      async collect() {
        const source = outboxEvents();
        if (source === undefined) return;
        const count = await withDeadline(source(), SCRAPE_DEADLINE_MS).catch(
          () => undefined,
        );
        // Unknown (NaN) rather than stale while the database does not answer.
        this.set(count ?? NaN);
      },
    });
    this.deliveryLag = new Histogram({
      name: 'formgate_delivery_lag_seconds',
      help: 'Time from a submission being stored to its notification being delivered.',
      buckets: [0.1, 0.5, 1, 2, 5, 10, 30, 60, 300, 900, 3600, 21600, 86400],
      registers,
    });
    this.sweepRuns = new Counter({
      name: 'formgate_sweep_runs_total',
      help: 'Runs of the background sweeps, by sweep and whether they succeeded.',
      labelNames: ['sweep', 'outcome'],
      registers,
    });
    new Gauge({
      name: 'formgate_database_up',
      help: '1 when the database answers a trivial query within 2 seconds, else 0.',
      registers,
      async collect() {
        const up = await withDeadline(
          options.databaseUp(),
          SCRAPE_DEADLINE_MS,
        ).catch(() => false);
        this.set(up ? 1 : 0);
      },
    });
    this.exposed = options.exposed;
    if (options.exposed) {
      collectDefaultMetrics({ register: this.registry });
      // Gauges named like counters (promtool refuses them); the same counts by type stay.
      for (const name of MISNAMED_PROCESS_GAUGES) {
        this.registry.removeSingleMetric(name);
      }
    }
  }

  /** The counters of a submit route (its pattern), every outcome at 0 from the start. */
  submissionCounters(route: string): SubmissionCounters {
    const counters = {} as Record<SubmissionOutcome, CounterCell>;
    for (const outcome of SUBMISSION_OUTCOMES) {
      counters[outcome] = this.submissions.cell({ route, outcome });
    }
    return counters;
  }

  /** The duration series of a route pattern (or UNMATCHED_ROUTE). */
  httpRoute(route: string): HttpRouteSeries {
    let series = this.httpRoutes.get(route);
    if (series === undefined) {
      series = new HttpRouteSeries(this.httpDurations, route);
      this.httpRoutes.set(route, series);
    }
    return series;
  }

  batchCommitted(size: number): void {
    this.batchSizes.observe(size);
  }

  /** Where the commit queue's depth is read when scraped. */
  watchCommitQueue(depth: () => number): void {
    this.queueDepth = depth;
  }

  /**
   * The notification channels: their attempt counters start at 0 (so a rate is there
   * before the first attempt), and their backlog is read from `backlog` when scraped.
   */
  watchDeliveries(channels: readonly string[], backlog: BacklogSource): void {
    for (const channel of channels) {
      for (const outcome of DELIVERY_OUTCOMES) {
        this.deliveries.inc({ channel, outcome }, 0);
      }
    }
    this.backlog = backlog;
  }

  /** Where the outbox events not yet expanded are counted when scraped. */
  watchOutbox(waiting: () => Promise<number>): void {
    this.outboxEvents = waiting;
  }

  /** Adds formgate_redis_up, read from `ping` when scraped (only where Redis is used). */
  watchRedis(ping: () => Promise<boolean>): void {
    if (this.registry.getSingleMetric('formgate_redis_up') !== undefined) {
      return;
    }
    new Gauge({
      name: 'formgate_redis_up',
      help: '1 when Redis answers a PING in time, else 0.',
      registers: [this.registry],
      async collect() {
        const up = await withDeadline(ping(), SCRAPE_DEADLINE_MS).catch(
          () => false,
        );
        this.set(up ? 1 : 0);
      },
    });
  }

  /** An attempt ended; `lagSeconds` when it delivered (since its submission was stored). */
  deliveryAttempted(
    channel: string,
    outcome: string,
    lagSeconds?: number,
  ): void {
    this.deliveries.inc({ channel, outcome });
    if (lagSeconds !== undefined) this.deliveryLag.observe(lagSeconds);
  }

  /** The sweeps this process runs: their counters start at 0. */
  watchSweeps(names: readonly string[]): void {
    for (const sweep of names) {
      for (const outcome of ['succeeded', 'failed']) {
        this.sweepRuns.inc({ sweep, outcome }, 0);
      }
    }
  }

  sweepRan(sweep: string, ok: boolean): void {
    this.sweepRuns.inc({ sweep, outcome: ok ? 'succeeded' : 'failed' });
  }

  /** The Prometheus text of every series. */
  scrape(): Promise<string> {
    return this.registry.metrics();
  }
}
