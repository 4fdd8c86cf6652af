import { LeaseClock } from './lease-clock.js';

describe('LeaseClock', () => {
  const clock = () => new LeaseClock(10_000, 5_000);

  it('lets a send start while enough of its lease is left, counted from when the claim was sent', () => {
    const leases = clock();
    leases.held(['a'], 1_000);
    expect(leases.canStart('a', 1_000)).toBe(true);
    expect(leases.canStart('a', 6_000)).toBe(true);
    expect(leases.canStart('a', 6_001)).toBe(false);
    expect(leases.canStart('a', 12_000)).toBe(false);
  });

  it('never starts a delivery it holds no lease for', () => {
    const leases = clock();
    expect(leases.canStart('b', 0)).toBe(false);
    leases.held(['b'], 0);
    leases.forget('b');
    expect(leases.canStart('b', 0)).toBe(false);
  });

  it('renews only leases that have not run out, and a renewal extends them', () => {
    const leases = clock();
    leases.held(['a', 'b'], 0);
    leases.held(['c'], 5_000);
    expect(leases.current(['a', 'b', 'c', 'd'], 9_999)).toEqual([
      'a',
      'b',
      'c',
    ]);
    expect(leases.current(['a', 'b', 'c'], 10_000)).toEqual(['c']);
    leases.held(['c'], 12_000);
    expect(leases.canStart('c', 17_000)).toBe(true);
    expect(leases.canStart('a', 17_000)).toBe(false);
  });
});
