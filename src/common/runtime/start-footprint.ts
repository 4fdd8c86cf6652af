// What a server keeps resident after its start (docs/performance.md, "Start and idle memory").
//
// Starting is unlike serving: ~2,600 modules are loaded and run once, and almost everything
// allocated survives. Left to its defaults, V8 reacts to that as it would to a hot loop, and
// keeps what it built for good, idle:
//
// - it grows the young generation (the semi-spaces where new objects are born) because so much
//   survives each scavenge — to its maximum, 16 MB semi-spaces on Node 20 and 32 MB on
//   Node 24, 25 to 45 MB of resident memory;
// - its optimising compilers (TurboFan; Maglev on Node 22+) compile the functions that run
//   most while modules load — code that serves no request — and the compilers' own pages and
//   allocations stay resident: about 13 MB.
//
// So while the server starts, the young generation is held at its initial size (growth
// factor 1) and functions run unoptimised (interpreter and Sparkplug); once it is ready, V8's
// own settings are restored, so a server under load grows its young generation and optimises
// its hot paths exactly as before. An operator who sets one of these V8 flags on the command
// line (`node --no-maglev dist/src/main.js`; or --jitless, which NODE_OPTIONS takes too)
// keeps it: that part is then left alone.
//
// Once the server is ready, one collection that compacts the old generation and gives its free
// pages back (V8's "last resort" collection, the one it runs under memory pressure) drops
// what start-up left behind: Node 22 and later only, whose V8 offers it.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

const GROWTH_FLAG = 'semi-space-growth-factor';

/** V8's default growth factor of the young generation (unchanged since V8 4.x). */
export const V8_GROWTH_FACTOR = 2;

/**
 * The V8 flags that choose the optimising compilers (`--opt` is TurboFan's old name; with
 * --jitless there is none, and none may be turned on).
 */
const COMPILER_FLAGS = ['turbofan', 'opt', 'maglev', 'jitless'];

interface Runtime {
  execArgv: readonly string[];
  nodeOptions: string;
  v8Version: string;
  arch: string;
}

const THIS_PROCESS: Runtime = {
  execArgv: process.execArgv,
  nodeOptions: process.env.NODE_OPTIONS ?? '',
  v8Version: process.versions.v8,
  arch: process.arch,
};

function v8Major(v8Version: string): number {
  return Number(v8Version.split('.')[0]);
}

/** The process was started with one of these V8 flags (either spelling, with or without no-). */
export function setByOperator(
  flags: readonly string[],
  runtime: Pick<Runtime, 'execArgv' | 'nodeOptions'> = THIS_PROCESS,
): boolean {
  const names = flags.flatMap((flag) =>
    [flag, flag.replaceAll('-', '_')].flatMap((name) => [
      `--${name}`,
      `--no-${name}`,
      `--no${name}`,
    ]),
  );
  return [...runtime.execArgv, ...runtime.nodeOptions.split(/\s+/)].some(
    (argument) =>
      names.some(
        (name) => argument === name || argument.startsWith(`${name}=`),
      ),
  );
}

/** Maglev is on by default from V8 12 (Node 22), where it is built: x64 and arm64. */
export function maglevOnByDefault(
  runtime: Pick<Runtime, 'v8Version' | 'arch'> = THIS_PROCESS,
): boolean {
  return (
    v8Major(runtime.v8Version) >= 12 &&
    (runtime.arch === 'x64' || runtime.arch === 'arm64')
  );
}

/**
 * Holds the young generation at its initial size and the optimising compilers off until the
 * returned function is called (once the server is ready), which restores V8's defaults.
 */
export function holdWhileStarting(
  setFlags: (flags: string) => void = setFlagsFromString,
  runtime: Runtime = THIS_PROCESS,
): () => void {
  const holds: Array<[hold: string, release: string]> = [];
  if (!setByOperator([GROWTH_FLAG], runtime)) {
    holds.push([`--${GROWTH_FLAG}=1`, `--${GROWTH_FLAG}=${V8_GROWTH_FACTOR}`]);
  }
  if (!setByOperator(COMPILER_FLAGS, runtime)) {
    holds.push(['--no-turbofan', '--turbofan']);
    if (maglevOnByDefault(runtime)) holds.push(['--no-maglev', '--maglev']);
  }
  for (const [hold] of holds) setFlags(hold);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    for (const [, release] of holds) setFlags(release);
  };
}

type GarbageCollector = (options?: {
  type: 'major';
  execution: 'sync';
  flavor: 'last-resort';
}) => void;

/** V8 12 (Node 22) and later take the last-resort flavour of a collection. */
export function offersLastResortCollection(
  v8Version = process.versions.v8,
): boolean {
  return v8Major(v8Version) >= 12;
}

/**
 * V8's collector, taken from a fresh context: setting --expose-gc makes V8 install `gc` in
 * contexts created afterwards only, and it is unset again at once.
 */
function garbageCollector(): GarbageCollector {
  setFlagsFromString('--expose-gc');
  try {
    return runInNewContext('gc') as GarbageCollector;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}

/**
 * A collection that compacts and returns free pages to the system: the last-resort flavour
 * where V8 offers it; before (Node 20) a full collection, which ignores the flavour.
 */
export function compactCollector(): () => void {
  const collect = garbageCollector();
  if (!offersLastResortCollection()) return () => collect();
  return () =>
    collect({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}

/** The compacting collection, run once after the start (Node 22 and later). */
export function compactHeap(): void {
  if (!offersLastResortCollection()) return;
  compactCollector()();
}
