// What a background sweep is: a named job that deletes what has outlived its time and
// says what it deleted. Features register theirs with SweepsService (docs/sweeps.md).

/** What one run deleted, by kind: `{ deliveries: 120, attempts: 241 }`. */
export type SweepCounts = Record<string, number>;

export interface Sweep {
  /** Names the sweep in the log and in `SweepsService.runAll()`'s answer. */
  readonly name: string;
  /**
   * Deletes what is due, in small batches that each take a turn on the event loop
   * (`inBatches`), and stops between two batches once `signal` is aborted (shutdown).
   */
  run(signal: AbortSignal): Promise<SweepCounts>;
}
