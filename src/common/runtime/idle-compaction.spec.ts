import {
  afterSample,
  IDLE_SAMPLES,
  REGROWTH_BYTES,
  SLACK_BYTES,
  type IdleState,
} from './idle-compaction.js';

const MiB = 1024 * 1024;
const fresh: IdleState = { idleSamples: 0, committedAfterLast: 0 };
const idle = { utilization: 0.01, used: 60 * MiB, committed: 180 * MiB };

/** Feeds `samples` in turn; answers whether each one compacted. */
function run(samples: Parameters<typeof afterSample>[1][], state = fresh) {
  return samples.map((sample) => {
    const next = afterSample(state, sample);
    state = next.state;
    return next.compact;
  });
}

describe('idle compaction', () => {
  it('compacts once the loop has been idle for two samples and the heap holds much more than it uses', () => {
    expect(run(Array.from({ length: IDLE_SAMPLES }, () => idle))).toEqual([
      false,
      true,
    ]);
  });

  it('waits while the loop is busy, and counts idle samples again from a busy one', () => {
    const busy = { ...idle, utilization: 0.6 };
    expect(run([idle, busy, idle, busy, idle, idle])).toEqual([
      false,
      false,
      false,
      false,
      false,
      true,
    ]);
  });

  it('leaves a heap alone that holds little beyond what it uses', () => {
    const tight = { ...idle, committed: idle.used + SLACK_BYTES - 1 };
    expect(run([tight, tight, tight])).toEqual([false, false, false]);
  });

  it('does not compact again until the heap has grown since the last compaction', () => {
    const after: IdleState = {
      idleSamples: 0,
      committedAfterLast: idle.committed - REGROWTH_BYTES + 1,
    };
    expect(run([idle, idle, idle], after)).toEqual([false, false, false]);
    const grown = { ...idle, committed: idle.committed + 1 };
    expect(run([grown, grown], after)).toEqual([false, true]);
  });
});
