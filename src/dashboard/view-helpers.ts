// Formatting helpers every template can call as `it.h.<name>(...)`. They return plain
// text; templates still output it escaped.
import { ownEntry } from '../common/values/own-entry.js';
import { safeName } from '../common/values/safe-name.js';

const MONTHS = [
  'Jan',
  'Feb',
  'Mar',
  'Apr',
  'May',
  'Jun',
  'Jul',
  'Aug',
  'Sep',
  'Oct',
  'Nov',
  'Dec',
];

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

function toDate(value: Date | string | null | undefined): Date | null {
  if (value === null || value === undefined) return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** "21 Nov 2025, 14:03 UTC" */
export function dateTime(value: Date | string | null | undefined): string {
  const date = toDate(value);
  if (!date) return '—';
  return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}, ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())} UTC`;
}

/** "21 Nov" or "21 Nov 2025" (UTC). */
export function calendarDay(
  value: Date | string | null | undefined,
  withYear = true,
): string {
  const date = toDate(value);
  if (!date) return '—';
  const day = `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]}`;
  return withYear ? `${day} ${date.getUTCFullYear()}` : day;
}

/** ISO 8601 for <time datetime>. */
export function iso(value: Date | string | null | undefined): string {
  return toDate(value)?.toISOString() ?? '';
}

/** "just now", "5 minutes ago", "3 days ago"; the exact time goes in a title. */
export function ago(
  value: Date | string | null | undefined,
  now = Date.now(),
): string {
  const date = toDate(value);
  if (!date) return 'never';
  const seconds = Math.max(0, Math.round((now - date.getTime()) / 1000));
  if (seconds < 60) return 'just now';
  const units: Array<[number, string]> = [
    [60, 'minute'],
    [3600, 'hour'],
    [86_400, 'day'],
    [30 * 86_400, 'month'],
    [365 * 86_400, 'year'],
  ];
  let chosen = units[0];
  for (const unit of units) if (seconds >= unit[0]) chosen = unit;
  const count = Math.floor(seconds / chosen[0]);
  return `${count} ${chosen[1]}${count === 1 ? '' : 's'} ago`;
}

export function plural(count: number, word: string, many = `${word}s`): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? word : many}`;
}

/** An uploaded file as a submission's data holds it (docs/files.md). */
export interface FileValue {
  id: string;
  name: string;
  size: number;
}

/** A submitted value as text (a file as its name): nothing in it is ever markup. */
export function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') {
    return String(value);
  }
  const files = filesOf(value);
  if (files) return files.map((file) => file.name).join(', ');
  return JSON.stringify(value);
}

/** The uploaded files a value holds (a file field's value), or null for any other value. */
export function filesOf(value: unknown): FileValue[] | null {
  const list = Array.isArray(value) ? value : [value];
  const isFile = (item: unknown) =>
    typeof item === 'object' &&
    item !== null &&
    typeof (item as { id?: unknown }).id === 'string' &&
    typeof (item as { name?: unknown }).name === 'string' &&
    typeof (item as { sha256?: unknown }).sha256 === 'string';
  if (list.length === 0 || !list.every(isFile)) return null;
  // Names are kept safe when stored; a row stored before that rule is shown safe too.
  return (list as FileValue[]).map((file) => ({
    ...file,
    name: safeName(file.name),
  }));
}

/** A byte count as people read it: 834 bytes, 12.4 KB, 3.1 MB. */
export function bytes(size: number): string {
  if (size < 1000) return `${size} bytes`;
  if (size < 1_000_000) return `${(size / 1000).toFixed(1)} KB`;
  return `${(size / 1_000_000).toFixed(1)} MB`;
}

/** A value of a record by a name from data (a submission key, a form id), own entries only. */
export function own(record: unknown, key: unknown): unknown {
  return record !== null && typeof record === 'object'
    ? ownEntry(record as Record<string, unknown>, key)
    : undefined;
}

export const viewHelpers = {
  dateTime,
  calendarDay,
  iso,
  ago,
  plural,
  cell,
  own,
  filesOf,
  bytes,
};
