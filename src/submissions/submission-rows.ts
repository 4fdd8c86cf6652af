// The one way submissions are read in bulk (list, search, export, bulk delete): keyset
// queries along IDX_submission_form_created_id, and a `q` search confined to a fixed
// window of rows. On SQLite, whose driver runs each statement on the event loop from
// start to end, a search window is examined in small chunks that take turns with the
// rest of the server (see common/event-loop-turns.ts).
import type BetterSqlite3 from 'better-sqlite3';
import type { Repository } from 'typeorm';
import { takeTurn } from '../common/event-loop-turns.js';
import type { SubmissionPosition } from './cursor.js';
import type { Submission, SubmissionData } from './submission.entity.js';
import type { SubmissionFilters } from './submission-filters.js';
import {
  LIKE_ESCAPE,
  mysqlSearchPattern,
  SQLITE_SEARCH_FUNCTION,
  valuesContain,
} from './submission-search.js';

/**
 * A `q` search examines at most this many submissions per request (per export batch),
 * so a rare term costs a bounded ~0.2 s instead of a scan of the whole form. A page
 * may then hold fewer matches than `limit` while nextCursor continues the scan.
 */
export const SEARCH_SCAN_ROWS = 10_000;
/**
 * Rows one SQLite search statement examines: a few milliseconds of work, after which
 * the search waits for its next turn on the event loop.
 */
export const SQLITE_SEARCH_CHUNK_ROWS = 1000;

/** A row as the query builder returns it (drivers differ on `data` and `createdAt`). */
export interface SubmissionRow {
  id: string;
  formId: string;
  data: unknown;
  ip: string | null;
  userAgent: string | null;
  origin: string | null;
  createdAt: Date | string;
}

export type Direction = 'ASC' | 'DESC';

export interface RowQuery {
  formId: string;
  filters: SubmissionFilters;
  direction: Direction;
  /** Rows strictly after this position in `direction`. */
  after?: SubmissionPosition;
  /** Rows up to and including this position in `direction`. */
  through?: SubmissionPosition;
  limit: number;
  /** Only to find the end of a search window: a fixed budget, never a page depth. */
  offset?: number;
  columns?: ReadonlyArray<keyof SubmissionRow>;
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

export const ALL_COLUMNS: ReadonlyArray<keyof SubmissionRow> = [
  'id',
  'formId',
  'data',
  'ip',
  'userAgent',
  'origin',
  'createdAt',
];

/** The index of the data model that every keyset query walks. */
const KEYSET_INDEX = 'IDX_submission_form_created_id';

/** "YYYY-MM-DD HH:MM:SS.mmm" UTC: how datetime(3) is stored on SQLite and compared on MySQL. */
export function sqlDatetime(date: Date): string {
  return date.toISOString().replace('T', ' ').replace('Z', '');
}

/** better-sqlite3 hands back DATETIME as "YYYY-MM-DD HH:MM:SS.SSS" in UTC. */
export function toDate(value: Date | string): Date {
  if (value instanceof Date) return value;
  const iso = value.includes('T') ? value : value.replace(' ', 'T');
  return new Date(/(Z|[+-]\d\d:?\d\d)$/.test(iso) ? iso : `${iso}Z`);
}

/** MariaDB and SQLite return JSON columns as text, MySQL 8 as a parsed value. */
export function toData(value: unknown): SubmissionData {
  const parsed: unknown = typeof value === 'string' ? JSON.parse(value) : value;
  return parsed !== null && typeof parsed === 'object'
    ? (parsed as SubmissionData)
    : {};
}

export function positionOf(row: SubmissionRow): SubmissionPosition {
  return { createdAt: toDate(row.createdAt), id: row.id };
}

/** Where the read after a full or search-bounded batch continues; undefined at the end. */
export function resumeAfter(
  batch: RowBatch,
  limit: number,
): SubmissionPosition | undefined {
  if (batch.rows.length >= limit)
    return positionOf(batch.rows[batch.rows.length - 1]);
  return batch.scannedThrough;
}

/** Connections on which the SQLite search function is registered. */
const sqliteSearchReady = new WeakSet<object>();

export class SubmissionRowReader {
  constructor(private readonly submissions: Repository<Submission>) {}

  get isSqlite(): boolean {
    return (
      this.submissions.manager.connection.options.type === 'better-sqlite3'
    );
  }

  /**
   * `rows()`, with a `q` search confined to the next SEARCH_SCAN_ROWS submissions in
   * order: the window's last position is found on the index alone (an index-only
   * scan of a fixed size, whatever the depth), and the search runs inside it.
   */
  async read(query: RowQuery): Promise<RowBatch> {
    if (!query.filters.q) return { rows: await this.rows(query) };
    if (this.isSqlite) return this.searchInChunks(query);
    const through = await this.windowEnd(query, query.after, SEARCH_SCAN_ROWS);
    return {
      rows: await this.rows({ ...query, through }),
      scannedThrough: through,
    };
  }

  /**
   * The same search window as `read`, examined SQLITE_SEARCH_CHUNK_ROWS rows per
   * statement with a turn on the event loop before each: the same rows come back, and
   * no statement holds the loop for more than a few milliseconds.
   */
  private async searchInChunks(query: RowQuery): Promise<RowBatch> {
    const rows: SubmissionRow[] = [];
    let after = query.after;
    for (
      let scanned = 0;
      scanned < SEARCH_SCAN_ROWS;
      scanned += SQLITE_SEARCH_CHUNK_ROWS
    ) {
      await takeTurn();
      const through = await this.windowEnd(
        query,
        after,
        Math.min(SQLITE_SEARCH_CHUNK_ROWS, SEARCH_SCAN_ROWS - scanned),
      );
      const found = await this.rows({
        ...query,
        after,
        through,
        limit: query.limit - rows.length,
      });
      rows.push(...found);
      // Enough matches, or the form has no rows beyond this chunk.
      if (rows.length >= query.limit || !through) return { rows };
      after = through;
    }
    return { rows, scannedThrough: after };
  }

  /** The position of the `size`-th row after `after` (filters but `q` applied), if any. */
  private async windowEnd(
    query: RowQuery,
    after: SubmissionPosition | undefined,
    size: number,
  ): Promise<SubmissionPosition | undefined> {
    const [end] = await this.rows({
      ...query,
      after,
      filters: { ...query.filters, q: undefined },
      columns: ['createdAt', 'id'],
      limit: 1,
      offset: size - 1,
    });
    return end ? positionOf(end) : undefined;
  }

  /**
   * The one query behind list, export and bulk delete: formId equality, createdAt
   * bounds, the keyset position and the search, ordered along
   * IDX_submission_form_created_id (formId, createdAt, id) with a LIMIT — never OFFSET.
   * On MySQL/MariaDB the index is forced: without the hint MariaDB reads the keyset
   * predicate as a `ref` on formId plus a filter, walking (and fetching) every row
   * newer than the cursor, so deep pages would cost O(depth). With it, the OR below
   * becomes an index range that starts right at the cursor (EXPLAIN: range, all three
   * key parts; Handler_read_prev = page size).
   */
  rows(query: RowQuery): Promise<SubmissionRow[]> {
    const e = (name: string) =>
      this.submissions.manager.connection.driver.escape(name);
    const createdAt = e('createdAt');
    const id = e('id');
    const where = [`${e('formId')} = ?`];
    const params: unknown[] = [query.formId];
    const { from, to, q } = query.filters;
    if (from) {
      where.push(`${createdAt} >= ?`);
      params.push(sqlDatetime(from));
    }
    if (to) {
      where.push(`${createdAt} < ?`);
      params.push(sqlDatetime(to));
    }
    if (query.after) {
      // The leading bound lets SQLite start its index range at the cursor (it does
      // not split the OR into ranges); MySQL/MariaDB do with the forced index.
      const [op, bound] =
        query.direction === 'DESC' ? ['<', '<='] : ['>', '>='];
      const at = sqlDatetime(query.after.createdAt);
      where.push(
        `${createdAt} ${bound} ?`,
        `(${createdAt} ${op} ? OR (${createdAt} = ? AND ${id} ${op} ?))`,
      );
      params.push(at, at, at, query.after.id);
    }
    if (query.through) {
      const [op, bound] =
        query.direction === 'DESC' ? ['>', '>='] : ['<', '<='];
      const at = sqlDatetime(query.through.createdAt);
      where.push(
        `${createdAt} ${bound} ?`,
        `(${createdAt} ${op} ? OR (${createdAt} = ? AND ${id} ${bound} ?))`,
      );
      params.push(at, at, at, query.through.id);
    }
    if (q && this.isSqlite) {
      this.registerSqliteSearch();
      where.push(`${SQLITE_SEARCH_FUNCTION}(${e('data')}, ?) = 1`);
      params.push(q);
    } else if (q) {
      where.push(
        `LOWER(CAST(JSON_EXTRACT(${e('data')}, '$.*') AS CHAR)) LIKE ? ESCAPE '${LIKE_ESCAPE}'`,
      );
      params.push(mysqlSearchPattern(q));
    }
    const table = this.isSqlite
      ? e('submission')
      : `${e('submission')} FORCE INDEX (${e(KEYSET_INDEX)})`;
    const columns = (query.columns ?? ALL_COLUMNS).map(e).join(', ');
    const direction = query.direction;
    return this.submissions.query<SubmissionRow[]>(
      `SELECT ${columns} FROM ${table} WHERE ${where.join(' AND ')} ` +
        `ORDER BY ${createdAt} ${direction}, ${id} ${direction} LIMIT ${Math.trunc(query.limit)}` +
        (query.offset ? ` OFFSET ${Math.trunc(query.offset)}` : ''),
      params,
    );
  }

  /** SQLite's LOWER/LIKE fold ASCII only: values are matched by a JS function instead. */
  private registerSqliteSearch(): void {
    const driver = this.submissions.manager.connection.driver as unknown as {
      databaseConnection?: BetterSqlite3.Database;
    };
    const db = driver.databaseConnection;
    if (!db || sqliteSearchReady.has(db)) return;
    db.function(
      SQLITE_SEARCH_FUNCTION,
      { deterministic: true },
      (data: unknown, needle: unknown) =>
        valuesContain(data, String(needle)) ? 1 : 0,
    );
    sqliteSearchReady.add(db);
  }
}
