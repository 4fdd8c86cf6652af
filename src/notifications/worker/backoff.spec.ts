import { nextStep, withJitter } from './backoff.js';

const SCHEDULE = [5, 300, 1800];
const NOW = new Date('2026-01-01T00:00:00.000Z');

describe('nextStep', () => {
  it('marks a successful attempt succeeded with nothing left to do', () => {
    expect(nextStep({ ok: true }, 1, SCHEDULE, NOW)).toEqual({
      status: 'succeeded',
      nextAttemptAt: null,
    });
  });

  it('waits the delay of the schedule that matches the attempt', () => {
    const first = nextStep({ ok: false }, 1, SCHEDULE, NOW, 0.5);
    expect(first).toEqual({
      status: 'failed',
      nextAttemptAt: new Date(NOW.getTime() + 5_000),
    });
    const third = nextStep({ ok: false }, 3, SCHEDULE, NOW, 0.5);
    expect(third.nextAttemptAt).toEqual(new Date(NOW.getTime() + 1_800_000));
  });

  it('gives up after N + 1 attempts for N delays', () => {
    expect(nextStep({ ok: false }, 3, SCHEDULE, NOW).status).toBe('failed');
    expect(nextStep({ ok: false }, 4, SCHEDULE, NOW)).toEqual({
      status: 'dead',
      nextAttemptAt: null,
    });
  });

  it('gives up at once when the target refused for good', () => {
    expect(nextStep({ ok: false, final: true }, 1, SCHEDULE, NOW).status).toBe(
      'dead',
    );
  });
});

describe('withJitter', () => {
  it('stays within ±10 % of the delay', () => {
    expect(withJitter(300, 0)).toBe(270_000);
    expect(withJitter(300, 0.999999)).toBeLessThanOrEqual(330_000);
    expect(withJitter(300, 0.999999)).toBeGreaterThan(329_000);
    for (let i = 0; i < 100; i += 1) {
      const value = withJitter(1800);
      expect(value).toBeGreaterThanOrEqual(1_620_000);
      expect(value).toBeLessThanOrEqual(1_980_000);
    }
  });
});
