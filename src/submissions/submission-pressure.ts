// How busy this process is taking submissions, as the background work inside a server (the
// notification worker, the full-text indexer) sees it: sampled every so often from the event
// loop's utilisation and the submissions the commit queue has committed since the last sample.
import { performance, type EventLoopUtilization } from 'node:perf_hooks';

/** What counts the submissions this process committed (CommitNotifier, SearchIndexer). */
export interface CommittedSubmissions {
  /** Submissions committed by this process since it started. */
  readonly submissions: number;
}

/**
 * Event-loop utilisation above which, with submissions committed in the same interval, the
 * process counts as saturated by submissions.
 */
const SATURATED = 0.8;
/**
 * Submissions a second above which the process counts as taking a burst, however busy its
 * loop looks: where the database or the machine's other work is what limits the rate (a
 * database server on the same cores), the loop waits rather than works, and a worker
 * sending at full speed takes the cores those submissions need.
 */
export const BURST_PER_SECOND = 500;

/** Whether, over the last sample, the process was busy taking submissions. */
export function takingSubmissions(sample: {
  utilization: number;
  submissions: number;
  intervalMs: number;
}): boolean {
  const { utilization, submissions, intervalMs } = sample;
  if (submissions === 0) return false;
  return (
    utilization > SATURATED ||
    (submissions * 1000) / Math.max(1, intervalMs) >= BURST_PER_SECOND
  );
}

/** Samples the process: each call tells whether it took submissions since the last one. */
export class SubmissionPressure {
  private elu: EventLoopUtilization;
  private submissions: number;
  private at: number;

  constructor(private readonly signal: CommittedSubmissions) {
    this.elu = performance.eventLoopUtilization();
    this.submissions = signal.submissions;
    this.at = performance.now();
  }

  sample(): boolean {
    const elu = performance.eventLoopUtilization();
    const at = performance.now();
    const busy = takingSubmissions({
      utilization: performance.eventLoopUtilization(elu, this.elu).utilization,
      submissions: this.signal.submissions - this.submissions,
      intervalMs: at - this.at,
    });
    this.elu = elu;
    this.submissions = this.signal.submissions;
    this.at = at;
    return busy;
  }
}
