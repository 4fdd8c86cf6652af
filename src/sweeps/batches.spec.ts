import {
  FIRST_SWEEP_BATCH,
  inBatches,
  MAX_SWEEP_BATCH,
  MIN_SWEEP_BATCH,
  nextSweepBatch,
  SWEEP_TURN_MS,
} from './batches.js';

describe('nextSweepBatch', () => {
  it('fits the next batch into SWEEP_TURN_MS at the last batch rate', () => {
    expect(nextSweepBatch(200, 200, SWEEP_TURN_MS * 4)).toBe(50);
    expect(nextSweepBatch(100, 100, SWEEP_TURN_MS)).toBe(100);
  });

  it('grows at most twofold, up to MAX_SWEEP_BATCH, never below MIN_SWEEP_BATCH', () => {
    expect(nextSweepBatch(100, 100, 0)).toBe(200);
    expect(nextSweepBatch(400, 400, 0.1)).toBe(MAX_SWEEP_BATCH);
    expect(nextSweepBatch(10, 10, 1000)).toBe(MIN_SWEEP_BATCH);
    expect(nextSweepBatch(300, 0, 50)).toBe(300);
  });
});

describe('inBatches', () => {
  it('runs batches until one reads fewer rows than asked for', async () => {
    let left = 1000;
    const limits: number[] = [];
    const batches = await inBatches((limit) => {
      limits.push(limit);
      const rows = Math.min(limit, left);
      left -= rows;
      return Promise.resolve(rows);
    });
    expect(left).toBe(0);
    expect(limits[0]).toBe(FIRST_SWEEP_BATCH);
    expect(Math.max(...limits)).toBeLessThanOrEqual(MAX_SWEEP_BATCH);
    expect(batches).toBe(limits.length);
  });

  it('runs each batch in its own turn of the event loop', async () => {
    let immediates = 0;
    let counting = true;
    const count = () => {
      immediates++;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    const seen: number[] = [];
    await inBatches((limit) => {
      seen.push(immediates);
      return Promise.resolve(seen.length < 5 ? limit : 0);
    });
    counting = false;
    // Between two batches the loop went round at least once.
    for (let i = 1; i < seen.length; i++) {
      expect(seen[i]).toBeGreaterThan(seen[i - 1]);
    }
  });

  it('stops between batches once the signal is aborted', async () => {
    const stop = new AbortController();
    let calls = 0;
    const batches = await inBatches(
      (limit) => {
        calls++;
        if (calls === 3) stop.abort();
        return Promise.resolve(limit);
      },
      { signal: stop.signal },
    );
    expect(batches).toBe(3);
  });

  it('grows to MAX_SWEEP_BATCH whatever a batch takes, when its statements wait off the loop', async () => {
    const limits: number[] = [];
    await inBatches(
      async (limit) => {
        limits.push(limit);
        await new Promise((resolve) => setTimeout(resolve, SWEEP_TURN_MS * 2));
        return limits.length < 5 ? limit : 0;
      },
      { onEventLoop: false },
    );
    expect(limits).toEqual([
      FIRST_SWEEP_BATCH,
      FIRST_SWEEP_BATCH * 2,
      FIRST_SWEEP_BATCH * 4,
      MAX_SWEEP_BATCH,
      MAX_SWEEP_BATCH,
    ]);
  });
});
