// Geometry of the "submissions per day" bar chart on a form's page. The template draws it
// as inline SVG (no script, no chart library); everything a person reads in it is also
// in its title, description and a table.
import type { DailyCount } from '../../submissions/queries/submission-stats.service.js';
import { calendarDay } from '../view-helpers.js';

export const CHART_WIDTH = 720;
export const CHART_HEIGHT = 200;
const PLOT = { left: 40, right: 8, top: 12, bottom: 28 };
/** Share of a day's slot the bar fills. */
const BAR_FILL = 0.72;

export interface ChartBar {
  x: number;
  y: number;
  width: number;
  height: number;
  day: string;
  count: number;
  /** "14 Nov 2026: 17 submissions" */
  label: string;
}

export interface ChartTick {
  y: number;
  value: number;
}

export interface ChartDayLabel {
  x: number;
  text: string;
}

export interface DailyChart {
  width: number;
  height: number;
  plot: { left: number; right: number; top: number; bottom: number };
  bars: ChartBar[];
  ticks: ChartTick[];
  dayLabels: ChartDayLabel[];
  total: number;
  /** One sentence for the SVG's <desc>: span, total, busiest day. */
  summary: string;
  days: DailyCount[];
}

/** "14 Nov" (with the year: "14 Nov 2026"). */
export function dayName(day: string, withYear = false): string {
  return calendarDay(`${day}T00:00:00Z`, withYear);
}

function plural(count: number): string {
  return `${count.toLocaleString('en-US')} submission${count === 1 ? '' : 's'}`;
}

/** The smallest of 1, 2, 5, 10, 20, 50 … at or above `max` (at least 1). */
export function niceMaximum(max: number): number {
  if (max <= 1) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 5, 10]) {
    if (step * magnitude >= max) return step * magnitude;
  }
  return 10 * magnitude;
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}

export function dailyChart(days: DailyCount[]): DailyChart {
  const plotWidth = CHART_WIDTH - PLOT.left - PLOT.right;
  const plotHeight = CHART_HEIGHT - PLOT.top - PLOT.bottom;
  const baseline = PLOT.top + plotHeight;
  const max = niceMaximum(Math.max(0, ...days.map((d) => d.count)));
  const slot = days.length > 0 ? plotWidth / days.length : plotWidth;
  const bars = days.map((d, i) => {
    const height = (d.count / max) * plotHeight;
    // A day with submissions stays visible however small its share.
    const shown = d.count > 0 ? Math.max(height, 2) : 0;
    return {
      x: round(PLOT.left + i * slot + (slot * (1 - BAR_FILL)) / 2),
      y: round(baseline - shown),
      width: round(slot * BAR_FILL),
      height: round(shown),
      day: d.day,
      count: d.count,
      label: `${dayName(d.day, true)}: ${plural(d.count)}`,
    };
  });
  const ticks = [0, max / 2, max]
    .filter((value) => Number.isInteger(value))
    .map((value) => ({
      value,
      y: round(baseline - (value / max) * plotHeight),
    }));
  // A label every 7 days, counted back from today so the last bar is always named.
  const dayLabels = days
    .map((d, i) => ({ d, i }))
    .filter(({ i }) => (days.length - 1 - i) % 7 === 0)
    .map(({ d, i }) => ({
      x: round(PLOT.left + i * slot + slot / 2),
      text: dayName(d.day),
    }));
  const total = days.reduce((sum, d) => sum + d.count, 0);
  return {
    width: CHART_WIDTH,
    height: CHART_HEIGHT,
    plot: PLOT,
    bars,
    ticks,
    dayLabels,
    total,
    summary: summarize(days, total),
    days,
  };
}

function summarize(days: DailyCount[], total: number): string {
  if (days.length === 0) return 'No days to show.';
  const span = `${dayName(days[0].day, true)} to ${dayName(days[days.length - 1].day, true)} (UTC)`;
  if (total === 0) return `No submissions from ${span}.`;
  const busiest = days.reduce((best, d) => (d.count > best.count ? d : best));
  return `${plural(total)} from ${span}; the busiest day was ${dayName(busiest.day, true)} with ${plural(busiest.count)}.`;
}
