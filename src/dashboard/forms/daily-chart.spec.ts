import { dailyChart, niceMaximum } from './daily-chart.js';

function days(counts: number[]) {
  return counts.map((count, i) => ({
    day: `2026-11-${String(i + 1).padStart(2, '0')}`,
    count,
  }));
}

describe('niceMaximum', () => {
  it('rounds the largest count up to 1, 2 or 5 times a power of ten', () => {
    expect([0, 1, 2, 3, 7, 10, 11, 26, 99, 101, 4800].map(niceMaximum)).toEqual(
      [1, 1, 2, 5, 10, 10, 20, 50, 100, 200, 5000],
    );
  });
});

describe('dailyChart', () => {
  it('draws one bar per day, as tall as its share of the scale', () => {
    const chart = dailyChart(days([0, 5, 10, 1]));
    expect(chart.total).toBe(16);
    expect(chart.bars.map((bar) => bar.count)).toEqual([0, 5, 10, 1]);
    const [empty, half, full, small] = chart.bars;
    expect(empty.height).toBe(0);
    expect(full.height).toBeCloseTo(2 * half.height, 0);
    expect(full.y + full.height).toBeCloseTo(empty.y, 5);
    // A single submission stays visible next to a tall day.
    expect(small.height).toBeGreaterThanOrEqual(2);
    expect(chart.ticks.map((tick) => tick.value)).toEqual([0, 5, 10]);
    // Bars stay inside the drawing, left to right.
    for (let i = 1; i < chart.bars.length; i++) {
      expect(chart.bars[i].x).toBeGreaterThan(chart.bars[i - 1].x);
    }
    const last = chart.bars[chart.bars.length - 1];
    expect(last.x + last.width).toBeLessThanOrEqual(chart.width);
  });

  it('labels bars and summarises the period in words', () => {
    const chart = dailyChart(days([0, 2, 3]));
    expect(chart.bars[2].label).toBe('3 Nov 2026: 3 submissions');
    expect(chart.bars[0].label).toBe('1 Nov 2026: 0 submissions');
    expect(chart.summary).toBe(
      '5 submissions from 1 Nov 2026 to 3 Nov 2026 (UTC); the busiest day was 3 Nov 2026 with 3 submissions.',
    );
    expect(dailyChart(days([0, 0])).summary).toBe(
      'No submissions from 1 Nov 2026 to 2 Nov 2026 (UTC).',
    );
  });

  it('names every seventh day counted back from the last, so today is always named', () => {
    const chart = dailyChart(days(Array.from({ length: 30 }, () => 0)));
    expect(chart.dayLabels.map((label) => label.text)).toEqual([
      '2 Nov',
      '9 Nov',
      '16 Nov',
      '23 Nov',
      '30 Nov',
    ]);
    expect(chart.ticks.map((tick) => tick.value)).toEqual([0, 1]);
  });
});
