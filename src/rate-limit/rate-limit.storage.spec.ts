import { MemoryRateLimitStorage } from './rate-limit.storage.js';

describe('MemoryRateLimitStorage', () => {
  let now: number;
  let storage: MemoryRateLimitStorage;
  beforeEach(() => {
    now = 1_000_000;
    storage = new MemoryRateLimitStorage(() => now);
  });
  afterEach(() => storage.onApplicationShutdown());

  it('counts hits in a fixed window that opens with the first one', async () => {
    expect(await storage.increment('k', 60_000, 2)).toEqual({
      totalHits: 1,
      timeToExpire: 60,
      isBlocked: false,
      timeToBlockExpire: 0,
    });
    now += 15_500;
    expect(await storage.increment('k', 60_000, 2)).toMatchObject({
      totalHits: 2,
      timeToExpire: 45,
      isBlocked: false,
    });
    expect(await storage.increment('k', 60_000, 2)).toEqual({
      totalHits: 3,
      timeToExpire: 45,
      isBlocked: true,
      timeToBlockExpire: 45,
    });
  });

  it('starts a new window once the old one is over', async () => {
    for (let i = 0; i < 3; i += 1) await storage.increment('k', 1000, 2);
    now += 1000;
    expect(await storage.increment('k', 1000, 2)).toMatchObject({
      totalHits: 1,
      isBlocked: false,
    });
  });

  it('keeps separate keys apart', async () => {
    await storage.increment('a', 1000, 1);
    expect(await storage.increment('b', 1000, 1)).toMatchObject({
      totalHits: 1,
      isBlocked: false,
    });
  });

  it('peeks without spending', async () => {
    expect(await storage.peek('k', 60_000)).toEqual({
      totalHits: 0,
      timeToExpire: 60,
    });
    await storage.increment('k', 60_000, 10);
    now += 10_000;
    expect(await storage.peek('k', 60_000)).toEqual({
      totalHits: 1,
      timeToExpire: 50,
    });
    expect(await storage.peek('k', 60_000)).toEqual({
      totalHits: 1,
      timeToExpire: 50,
    });
  });

  it('forgets a key on reset', async () => {
    await storage.increment('k', 60_000, 1);
    await storage.increment('k', 60_000, 1);
    await storage.reset('k');
    expect(await storage.peek('k', 60_000)).toEqual({
      totalHits: 0,
      timeToExpire: 60,
    });
  });

  it('forgets expired windows when it sweeps', async () => {
    await storage.increment('old', 1000, 10);
    await storage.increment('new', 5000, 10);
    now += 2000;
    storage.sweep();
    expect(storage.size).toBe(1);
  });
});
