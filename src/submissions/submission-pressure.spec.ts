import { BURST_PER_SECOND, takingSubmissions } from './submission-pressure.js';

describe('takingSubmissions', () => {
  const perSecond = (rate: number, intervalMs = 250) =>
    Math.round((rate * intervalMs) / 1000);

  it('is false while no submission was committed, however busy the loop', () => {
    expect(
      takingSubmissions({ utilization: 1, submissions: 0, intervalMs: 250 }),
    ).toBe(false);
  });

  it('is true when submissions keep a saturated loop busy', () => {
    expect(
      takingSubmissions({ utilization: 0.9, submissions: 1, intervalMs: 250 }),
    ).toBe(true);
  });

  it('is true for a burst of submissions whatever the loop utilisation', () => {
    expect(
      takingSubmissions({
        utilization: 0.3,
        submissions: perSecond(BURST_PER_SECOND),
        intervalMs: 250,
      }),
    ).toBe(true);
    expect(
      takingSubmissions({
        utilization: 0.3,
        submissions: perSecond(BURST_PER_SECOND, 1000),
        intervalMs: 1000,
      }),
    ).toBe(true);
  });

  it('is false for an ordinary flow of submissions on a loop with room', () => {
    expect(
      takingSubmissions({
        utilization: 0.5,
        submissions: perSecond(BURST_PER_SECOND / 2),
        intervalMs: 250,
      }),
    ).toBe(false);
    // A late sample spreads the same count over a longer time.
    expect(
      takingSubmissions({
        utilization: 0.5,
        submissions: perSecond(BURST_PER_SECOND),
        intervalMs: 2000,
      }),
    ).toBe(false);
  });
});
