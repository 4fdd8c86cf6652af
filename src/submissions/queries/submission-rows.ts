// A stored submission as the drivers hand it back, and the conversions every reader of
// rows shares (dates and JSON differ between MySQL, MariaDB and SQLite).
import type { SubmissionPosition } from './cursor.js';
import type { SubmissionData, SubmissionStatus } from '../submission.entity.js';
import { toDate } from '../../common/database/sql-dates.js';

/** A row as the driver returns it (drivers differ on `data` and `createdAt`). */
export interface SubmissionRow {
  id: string;
  formId: string;
  data: unknown;
  ip: string | null;
  userAgent: string | null;
  origin: string | null;
  createdAt: Date | string;
  /** 0/1 on SQLite and MariaDB, a boolean where the driver converts it. */
  spam: number | boolean;
  /** JSON text (or a parsed array on MySQL 8), null when clean. */
  spamReasons: unknown;
  status: SubmissionStatus;
  assigneeId: string | null;
}

/** Rows of one bounded read, and where its search window ended (if it did). */
export interface RowBatch {
  rows: SubmissionRow[];
  /**
   * Set when a `q` search stopped at its scan budget: every row up to here was
   * examined, so the next read continues strictly after this position.
   */
  scannedThrough?: SubmissionPosition;
}

/**
 * A stored SQLite datetime that `toDate` reads exactly as written: days 01–28 only, so
 * that no date rolls over into the next month (V8 reads 2023-02-30 as March 2nd).
 */
const CANONICAL_SQL_DATETIME =
  /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|1\d|2[0-8]) (?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}$/;

/**
 * `toDate(value).toISOString()`. Exports write one per row: the stored SQLite text is
 * rearranged without building a Date (about ten times cheaper); anything else, days
 * 29–31 included, goes through `toDate`, so the output is the same for every value.
 */
export function isoTime(value: Date | string): string {
  if (typeof value === 'string' && CANONICAL_SQL_DATETIME.test(value)) {
    return `${value.slice(0, 10)}T${value.slice(11)}Z`;
  }
  return toDate(value).toISOString();
}

/** MariaDB and SQLite return JSON columns as text, MySQL 8 as a parsed value. */
export function toData(value: unknown): SubmissionData {
  const parsed: unknown = typeof value === 'string' ? JSON.parse(value) : value;
  return parsed !== null && typeof parsed === 'object'
    ? (parsed as SubmissionData)
    : {};
}

/** The stored reasons as a list ([] when clean). */
export function toReasons(value: unknown): string[] {
  let parsed: unknown = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      return [];
    }
  }
  return Array.isArray(parsed)
    ? parsed.filter((entry): entry is string => typeof entry === 'string')
    : [];
}

export function positionOf(row: SubmissionRow): SubmissionPosition {
  return { createdAt: toDate(row.createdAt), id: row.id };
}

/** Where the read after a full or search-bounded batch continues; undefined at the end. */
export function resumeAfter(
  batch: RowBatch,
  limit: number,
): SubmissionPosition | undefined {
  if (batch.rows.length >= limit) {
    return positionOf(batch.rows[batch.rows.length - 1]);
  }
  return batch.scannedThrough;
}
