// What a server keeps resident after its start (docs/performance.md, "Start and idle memory").
//
// V8 grows its young generation (the semi-spaces where new objects are born) whenever much
// of it survives a scavenge, and never gives it back while the process stays busy or idle.
// Loading the application's ~2,600 modules is exactly that pattern: almost everything
// allocated during start survives, so the young generation used to grow to its maximum
// (16 MB semi-spaces on Node 20, 32 MB on Node 24) and stay resident, idle, ever after —
// 25 to 45 MB of an idle server's memory (docs/performance.md, "Start and idle memory").
//
// While the server starts, the young generation is held at its initial size (its growth
// factor is 1); once it is ready, V8's own growth factor is restored, so a server under load
// grows its young generation exactly as before. An operator who sets the growth factor
// (NODE_OPTIONS=--semi-space-growth-factor=N) keeps it: it is then left alone.
//
// Once the server is ready, one collection that compacts the old generation and gives its free
// pages back (V8's "last resort" collection, the one it runs under memory pressure) drops
// what start-up left behind: Node 22 and later only, whose V8 offers it.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

const FLAG = 'semi-space-growth-factor';

/** V8's default growth factor of the young generation (unchanged since V8 4.x). */
export const V8_GROWTH_FACTOR = 2;

/** The process was started with the growth factor set (command line or NODE_OPTIONS). */
export function growthFactorSetByOperator(
  execArgv: readonly string[] = process.execArgv,
  nodeOptions = process.env.NODE_OPTIONS ?? '',
): boolean {
  const names = [`--${FLAG}`, `--${FLAG.replaceAll('-', '_')}`];
  return [...execArgv, ...nodeOptions.split(/\s+/)].some((argument) =>
    names.some((name) => argument === name || argument.startsWith(`${name}=`)),
  );
}

/**
 * Holds the young generation at its initial size until the returned function is called
 * (once the server is ready). Does nothing when the operator set the growth factor.
 */
export function holdYoungGenerationWhileStarting(
  setFlags: (flags: string) => void = setFlagsFromString,
  setByOperator = growthFactorSetByOperator(),
): () => void {
  if (setByOperator) return () => {};
  setFlags(`--${FLAG}=1`);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    setFlags(`--${FLAG}=${V8_GROWTH_FACTOR}`);
  };
}

type GarbageCollector = (options: {
  type: 'major';
  execution: 'sync';
  flavor: 'last-resort';
}) => void;

/** V8 12 (Node 22) and later take the last-resort flavour of a collection. */
export function offersLastResortCollection(
  v8Version = process.versions.v8,
): boolean {
  return Number(v8Version.split('.')[0]) >= 12;
}

/**
 * A full collection that compacts and returns free pages to the system, run once. The
 * collector is taken from a fresh context: setting --expose-gc makes V8 install `gc` in
 * contexts created afterwards only, and it is unset again at once.
 */
export function compactHeap(): void {
  if (!offersLastResortCollection()) return;
  setFlagsFromString('--expose-gc');
  let collect: GarbageCollector;
  try {
    collect = runInNewContext('gc') as GarbageCollector;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
  collect({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}
