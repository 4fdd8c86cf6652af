// Long jobs that do synchronous work on the event loop — SQLite reads (better-sqlite3 runs
// every statement on the calling thread), encoding export rows, searching values — take
// turns through here. One turn is granted per loop iteration, in the order they were
// asked for, so between two pieces of that work Node polls the network once: a
// submission or a health check never waits behind more than one piece, however many
// exports and searches run. Each job keeps its pieces small (a few milliseconds).
//
// A bare `await` is not enough: a promise that is already resolved (an SQLite query, a
// socket that accepts every write) continues in the microtask queue, and a whole export
// could then run without the loop ever reaching the network.

const waiting: Array<() => void> = [];
let scheduled = false;

function grant(): void {
  scheduled = false;
  waiting.shift()?.();
  // Immediates queued while immediates run are deferred to the next loop iteration.
  if (waiting.length > 0) schedule();
}

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  setImmediate(grant);
}

/** Resolves when it is this caller's turn to run one bounded piece of synchronous work. */
export function takeTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    schedule();
  });
}

/** Jobs waiting for a turn (diagnostics and tests). */
export function waitingTurns(): number {
  return waiting.length;
}
