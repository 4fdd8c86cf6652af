// Preloaded into the measured server by bench:export-stall (`node --import <this> main.js`):
// records how late the event loop ran a 5 ms timer, i.e. how long synchronous work held
// it. The benchmark asks over the IPC channel: "loop-stall:reset" starts a new
// measurement, "loop-stall:read" answers with the figures since the last reset.
import { monitorEventLoopDelay } from 'node:perf_hooks';

export interface LoopStallReading {
  /** Longest the loop was held, in ms. */
  maxMs: number;
  p99Ms: number;
  meanMs: number;
}

const histogram = monitorEventLoopDelay({ resolution: 5 });
histogram.enable();

const ms = (ns: number) => Math.round(ns / 1e4) / 100;

if (process.send) {
  process.channel?.unref();
  process.on('message', (message: unknown) => {
    if (message === 'loop-stall:reset') {
      histogram.reset();
    } else if (message === 'loop-stall:read') {
      const reading: LoopStallReading = {
        maxMs: ms(histogram.max),
        p99Ms: ms(histogram.percentile(99)),
        meanMs: ms(histogram.mean),
      };
      process.send?.({ loopStall: reading });
    }
  });
}
