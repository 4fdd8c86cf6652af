// What the soak benchmark (soak.ts) makes of its measurements: the figures of each 30 s
// interval, the targets, the table it prints, and its section of
// docs/performance.md, replaced on each run (one section per database).
import { percentile, type Sample, type Submitted } from './soak-load.js';

export const INTERVAL_MS = 30_000;

export const TARGETS = {
  /** Every interval's submit p99 at most this many times the first interval's… */
  p99VsFirst: 2,
  /** …and at most this, ms. */
  p99Ms: 100,
  /** RSS once drained and idle, at most this above the first minute's, MiB. */
  idleRssAboveFirstMinuteMb: 40,
};

export interface Interval {
  p50Ms: number;
  p99Ms: number;
  /** At the interval's last sample. */
  rssMb: number;
  heapMb: number;
  /** The highest of the interval's samples (each the p99 since the one before). */
  loopDelayP99Ms: number;
  backlog: number;
}

export interface Outcome {
  database: string;
  rate: number;
  minutes: number;
  intervals: Interval[];
  /** The RSS at the end of the first minute of load (or of the load, when shorter). */
  firstMinuteRssMb: number;
  drain: { seconds: number; peakRssMb: number; peakHeapMb: number };
  idle: { rssMb: number; heapMb: number };
  accepted: number;
  refused: number;
  delivered: number;
  lost: number;
  duplicates: number;
  ownerListP95Ms: number;
  senderLagMs: number;
}

const round = (value: number, digits = 0) => {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
};

/** The load cut into 30 s intervals: submit latencies by planned departure, samples by time. */
export function intervals(
  results: readonly Submitted[],
  samples: readonly Sample[],
  loadMs: number,
): Interval[] {
  const count = Math.max(1, Math.ceil(loadMs / INTERVAL_MS));
  return Array.from({ length: count }, (_, k) => {
    const from = k * INTERVAL_MS;
    const to = from + INTERVAL_MS;
    const ms = results
      .filter((r) => r.at >= from && r.at < to)
      .map((r) => r.ms);
    const inside = samples.filter(
      (s) => s.phase === 'load' && s.at >= from && s.at < to,
    );
    const last = inside.at(-1);
    return {
      p50Ms: round(percentile(ms, 0.5), 1),
      p99Ms: round(percentile(ms, 0.99), 1),
      rssMb: round(last?.rssMb ?? NaN),
      heapMb: round(last?.heapUsedMb ?? NaN),
      loopDelayP99Ms: round(
        Math.max(...inside.map((s) => s.loopDelayP99Ms)),
        1,
      ),
      backlog: last?.backlog ?? NaN,
    };
  });
}

/** The targets the outcome misses, in words (none: all met). */
export function missedTargets(outcome: Outcome): string[] {
  const missed: string[] = [];
  if (outcome.lost > 0) missed.push(`${outcome.lost} deliveries lost`);
  if (outcome.duplicates > 0) {
    missed.push(`${outcome.duplicates} deliveries received twice`);
  }
  if (outcome.refused > 0) {
    missed.push(`${outcome.refused} submissions not acknowledged`);
  }
  const first = outcome.intervals[0]?.p99Ms ?? NaN;
  outcome.intervals.forEach((interval, k) => {
    if (interval.p99Ms > TARGETS.p99Ms) {
      missed.push(`interval ${k + 1}: p99 ${interval.p99Ms} ms > 100 ms`);
    } else if (k > 0 && interval.p99Ms > TARGETS.p99VsFirst * first) {
      missed.push(
        `interval ${k + 1}: p99 ${interval.p99Ms} ms > 2× the first's ${first} ms`,
      );
    }
  });
  const above = outcome.idle.rssMb - outcome.firstMinuteRssMb;
  if (!(above <= TARGETS.idleRssAboveFirstMinuteMb)) {
    missed.push(
      `idle RSS ${round(outcome.idle.rssMb)} MiB is ${round(above)} MiB above the first minute's ${round(outcome.firstMinuteRssMb)} MiB (target +${TARGETS.idleRssAboveFirstMinuteMb})`,
    );
  }
  return missed;
}

/** The table, in Markdown. */
export function table(outcome: Outcome): string {
  const { intervals: all, drain, idle } = outcome;
  const cells = (pick: (i: Interval) => number | string) =>
    all.map((i) => String(pick(i)));
  const row = (label: string, values: string[], after: string[]) =>
    `| ${[label, ...values, ...after].join(' | ')} |`;
  const header = row(
    '30 s interval',
    all.map((_, k) => String(k + 1)),
    [`drain (${round(drain.seconds, 1)} s)`, 'drained, 30 s idle'],
  );
  const rule = `|${'---|'.repeat(all.length + 3)}`;
  return [
    header,
    rule,
    row(
      'submit p50 (ms)',
      cells((i) => i.p50Ms),
      ['—', '—'],
    ),
    row(
      'submit p99 (ms)',
      cells((i) => i.p99Ms),
      ['—', '—'],
    ),
    row(
      'RSS (MiB)',
      cells((i) => i.rssMb),
      [`peak ${round(drain.peakRssMb)}`, `**${round(idle.rssMb)}**`],
    ),
    row(
      'heap used (MiB)',
      cells((i) => i.heapMb),
      [`peak ${round(drain.peakHeapMb)}`, String(round(idle.heapMb))],
    ),
    row(
      'event-loop delay p99 (ms)',
      cells((i) => i.loopDelayP99Ms),
      ['—', '—'],
    ),
    row(
      'backlog',
      cells((i) => i.backlog),
      ['0', '0'],
    ),
  ].join('\n');
}

/** The section of docs/performance.md for this database. */
export function section(outcome: Outcome, note: string): string {
  const missed = missedTargets(outcome);
  return [
    `### ${outcome.database}: ${outcome.minutes} min at ${outcome.rate}/s (${new Date().toISOString().slice(0, 10)})`,
    '',
    table(outcome),
    '',
    `${outcome.accepted} acknowledged, ${outcome.delivered} delivered once, ${outcome.lost} lost, ` +
      `${outcome.duplicates} received twice, ${outcome.refused} not acknowledged; the owner's list ` +
      `p95 ${round(outcome.ownerListP95Ms, 1)} ms; first minute's RSS ${round(outcome.firstMinuteRssMb)} MiB; ` +
      `the load generator left at worst ${round(outcome.senderLagMs)} ms late.` +
      (note ? ` ${note}` : ''),
    '',
    missed.length === 0
      ? 'Every target met.'
      : `Targets missed: ${missed.join('; ')}.`,
  ].join('\n');
}

/** `doc` with the section between this database's markers replaced (appended when absent). */
export function replaceSection(
  doc: string,
  database: string,
  text: string,
): string {
  const open = `<!-- bench:soak ${database} -->`;
  const close = `<!-- /bench:soak ${database} -->`;
  const block = `${open}\n${text}\n${close}`;
  const from = doc.indexOf(open);
  const to = doc.indexOf(close);
  if (from >= 0 && to > from) {
    return doc.slice(0, from) + block + doc.slice(to + close.length);
  }
  return `${doc.trimEnd()}\n\n${block}\n`;
}
