// Parsing of the list/export/delete filters shared by the API and the dashboard:
// `from` (inclusive) and `to` (exclusive) instants, and the `q` search needle.
import { BadRequestException } from '@nestjs/common';
import {
  SUBMISSION_STATUSES,
  type SubmissionStatus,
} from '../submission.entity.js';

export interface SubmissionFilterInput {
  from?: string;
  to?: string;
  q?: string;
  /** true: only the spam folder; otherwise only clean submissions. */
  spam?: boolean;
  /** new, open or closed. */
  status?: string;
  /** A member's user id, or `none` for nobody's. */
  assignee?: string;
  /** A label's name. */
  label?: string;
}

export interface SubmissionFilters {
  /** The folder: spam (true) or clean submissions (false or absent). */
  spam?: boolean;
  /** createdAt >= from */
  from?: Date;
  /** createdAt < to */
  to?: Date;
  /** lower-cased, trimmed search text */
  q?: string;
  status?: SubmissionStatus;
  /** The assignee's user id; null: only submissions nobody has. */
  assignee?: string | null;
  /** The label's id (LabelsService resolves `label`; an unknown name matches none). */
  labelId?: string;
}

export const INSTANT_FORMAT_HINT =
  'an ISO 8601 date or date-time, e.g. 2025-05-01 or 2025-05-01T12:00:00Z';

// Date, optional time (T or space), optional zone. A zone such as "+02:00" sent
// unencoded in a query string arrives as " 02:00" (the + decodes to a space): accepted.
const INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|z|[+-]\d{2}(?::?\d{2})?| \d{2}:\d{2})?)?$/;

/** DATETIME on MySQL/MariaDB holds years 1000–9999; bounds outside are clamped to it. */
const EARLIEST = Date.UTC(1000, 0, 1);
const LATEST = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysIn(year: number, month: number): number {
  return month === 2 && isLeap(year) ? 29 : DAYS_IN_MONTH[month - 1];
}

function isLeap(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/**
 * An ISO 8601 calendar date or date-time as an instant; without a zone it is UTC.
 * Returns undefined for anything else (week dates, impossible days, 25:00 …).
 */
export function parseInstant(text: string): Date | undefined {
  // The longest accepted spelling has 35 characters; longer input never reaches the pattern.
  if (text.length > 64) return undefined;
  const match = INSTANT.exec(text.trim());
  if (!match) return undefined;
  const [, y, mo, d, h = '0', mi = '0', s = '0', fraction = '', zone] = match;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) {
    return undefined;
  }
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const ms = Number(fraction.padEnd(3, '0').slice(0, 3));
  let offsetMinutes = 0;
  if (zone !== undefined && zone.toUpperCase() !== 'Z') {
    const sign = zone[0] === '-' ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    const offsetHours = Number(digits.slice(0, 2));
    const offsetMins = Number(digits.slice(2) || '0');
    if (offsetHours > 23 || offsetMins > 59) return undefined;
    offsetMinutes = sign * (offsetHours * 60 + offsetMins);
  }
  const date = new Date(
    Date.UTC(2000, month - 1, day, hour, minute, second, ms),
  );
  date.setUTCFullYear(year, month - 1, day);
  return new Date(date.getTime() - offsetMinutes * 60_000);
}

function clamp(date: Date): Date {
  const ms = date.getTime();
  if (ms < EARLIEST) return new Date(EARLIEST);
  if (ms > LATEST) return new Date(LATEST);
  return date;
}

/** Validated filters, or 400 `{error}` naming the bad parameter. */
export function parseFilters(input: SubmissionFilterInput): SubmissionFilters {
  const filters: SubmissionFilters = {};
  for (const name of ['from', 'to'] as const) {
    const raw = input[name];
    if (raw === undefined || raw === '') continue;
    const instant = parseInstant(raw);
    if (!instant) {
      throw new BadRequestException(`${name} must be ${INSTANT_FORMAT_HINT}`);
    }
    filters[name] = clamp(instant);
  }
  if (filters.from && filters.to && filters.from > filters.to) {
    throw new BadRequestException('from must not be later than to');
  }
  const q = input.q?.trim().toLowerCase();
  if (q) filters.q = q;
  if (input.spam === true) filters.spam = true;
  if (input.status !== undefined && input.status !== '') {
    if (!SUBMISSION_STATUSES.includes(input.status as SubmissionStatus)) {
      throw new BadRequestException(
        `status must be one of ${SUBMISSION_STATUSES.join(', ')}`,
      );
    }
    filters.status = input.status as SubmissionStatus;
  }
  if (input.assignee !== undefined && input.assignee !== '') {
    filters.assignee = input.assignee === 'none' ? null : input.assignee;
  }
  return filters;
}
