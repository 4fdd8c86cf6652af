// Deleting many rows without stalling anyone: a sweep works in batches walked along an
// index, each batch in a turn of its own on the event loop (common/runtime/event-loop-turns.ts),
// sized so that a batch takes about SWEEP_TURN_MS. On SQLite the statements run on the
// event loop, so one long DELETE would hold every request behind it; on MySQL/MariaDB a
// long DELETE holds its row locks (and the commit queue behind them) for as long.
import { takeTurn } from '../common/runtime/event-loop-turns.js';

/** What a batch aims to take, well under the 50 ms any turn may hold the loop. */
export const SWEEP_TURN_MS = 10;
export const FIRST_SWEEP_BATCH = 100;
export const MIN_SWEEP_BATCH = 10;
export const MAX_SWEEP_BATCH = 500;

/**
 * The size of the next batch: as many rows as the last batch's rate fits in
 * SWEEP_TURN_MS, at most double the last size, within MIN_SWEEP_BATCH and
 * MAX_SWEEP_BATCH.
 */
export function nextSweepBatch(
  size: number,
  rows: number,
  elapsedMs: number,
): number {
  if (rows === 0) return size;
  const fitting =
    elapsedMs > 0 ? Math.floor((SWEEP_TURN_MS * rows) / elapsedMs) : Infinity;
  return Math.max(
    MIN_SWEEP_BATCH,
    Math.min(MAX_SWEEP_BATCH, size * 2, fitting),
  );
}

export interface BatchOptions {
  /** Aborted at shutdown: no batch starts after it. */
  signal?: AbortSignal;
  /**
   * Whether the statements run on the event loop (SQLite, the default): batches are then
   * sized by the time they take. On MySQL/MariaDB a statement waits off the loop, its time
   * is mostly round trips and the commit's flush, and batches take MAX_SWEEP_BATCH rows
   * after the first (a few milliseconds of row locks).
   */
  onEventLoop?: boolean;
}

/**
 * Runs `batch(limit)` in turns until it reads fewer rows than `limit` (the range is
 * done) or the signal is aborted. `batch` reads at most `limit` rows of its range, deletes
 * what is due among them, and answers how many rows it read; the caller counts what was
 * deleted. Answers the number of batches run.
 */
export async function inBatches(
  batch: (limit: number) => Promise<number>,
  options: BatchOptions = {},
): Promise<number> {
  const onEventLoop = options.onEventLoop ?? true;
  let limit = FIRST_SWEEP_BATCH;
  let batches = 0;
  while (!options.signal?.aborted) {
    await takeTurn();
    const started = performance.now();
    const rows = await batch(limit);
    batches++;
    if (rows < limit) break;
    limit = nextSweepBatch(
      limit,
      rows,
      onEventLoop ? performance.now() - started : 0,
    );
  }
  return batches;
}
