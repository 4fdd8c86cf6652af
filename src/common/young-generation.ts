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
import { setFlagsFromString } from 'node:v8';

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
