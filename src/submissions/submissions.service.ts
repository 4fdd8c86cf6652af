import {
  BadRequestException,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type BetterSqlite3 from 'better-sqlite3';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Repository } from 'typeorm';
import type { Form } from '../forms/form.entity.js';
import {
  decodeCursor,
  encodeCursor,
  INVALID_CURSOR,
  type SubmissionPosition,
} from './cursor.js';
import type { ExportFormat } from './dto/export-submissions-query.dto.js';
import {
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
} from './dto/list-submissions-query.dto.js';
import type {
  DeletedSubmissionsDto,
  SubmissionDto,
  SubmissionPageDto,
} from './dto/submission.dto.js';
import { csvRow } from './export/csv.js';
import { exportFilename } from './export/export-filename.js';
import { Submission, type SubmissionData } from './submission.entity.js';
import {
  parseFilters,
  type SubmissionFilterInput,
  type SubmissionFilters,
} from './submission-filters.js';
import {
  LIKE_ESCAPE,
  mysqlSearchPattern,
  SQLITE_SEARCH_FUNCTION,
  valuesContain,
} from './submission-search.js';

export const SUBMISSION_NOT_FOUND = 'Submission not found';

/**
 * Rows per query while exporting. Small on purpose: a batch lives across the await of
 * its query, so whatever a young-generation GC finds alive gets promoted to the old
 * generation. With 2,000-row batches a 1M-row export grew the heap by ~70 MB of
 * promoted garbage before a full GC; with 500 the process stays within ~10 MB of idle.
 */
export const EXPORT_BATCH_SIZE = 500;
/**
 * Output is handed on in chunks of about this many characters: well below V8's
 * large-object threshold (~128 KB), since large strings are freed only by a full GC
 * and 1M rows of them piled up ~40 MB before one ran.
 */
export const EXPORT_CHUNK_CHARS = 32 * 1024;
/** What each export format reads from a row. */
const CSV_COLUMNS: ReadonlyArray<keyof SubmissionRow> = [
  'id',
  'createdAt',
  'data',
];
/**
 * A `q` search examines at most this many submissions per request (per export batch),
 * so a rare term costs a bounded ~0.2 s instead of a scan of the whole form. A page
 * may then hold fewer matches than `limit` while nextCursor continues the scan.
 */
export const SEARCH_SCAN_ROWS = 10_000;
/** Rows per statement while bulk-deleting, so no statement holds locks for long. */
export const DELETE_BATCH_SIZE = 1000;
/** A CSV of a form without configured fields gets at most this many value columns. */
export const MAX_CSV_COLUMNS = 1000;

export interface ListSubmissionsQuery extends SubmissionFilterInput {
  limit?: number;
  cursor?: string;
}

export interface ExportSubmissionsQuery extends SubmissionFilterInput {
  format?: ExportFormat;
  /** CSV only: a leading UTF-8 byte order mark, which Excel needs to read UTF-8. */
  bom?: boolean;
}

/** U+FEFF, written as the UTF-8 bytes EF BB BF. */
export const UTF8_BOM = '\uFEFF';

export interface SubmissionExport {
  /** The file, produced batch by batch as it is read; destroy it to stop early. */
  stream: Readable;
  contentType: string;
  filename: string;
}

export interface FormSubmissionStats {
  count: number;
  lastAt: Date | null;
}

/** A row as the query builder returns it (drivers differ on `data` and `createdAt`). */
interface SubmissionRow {
  id: string;
  formId: string;
  data: unknown;
  ip: string | null;
  userAgent: string | null;
  origin: string | null;
  createdAt: Date | string;
}

type Direction = 'ASC' | 'DESC';

interface RowQuery {
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
interface RowBatch {
  rows: SubmissionRow[];
  /**
   * Set when a `q` search stopped at its scan budget: every row up to here was
   * examined, so the next read continues strictly after this position.
   */
  scannedThrough?: SubmissionPosition;
}

const ALL_COLUMNS: ReadonlyArray<keyof SubmissionRow> = [
  'id',
  'formId',
  'data',
  'ip',
  'userAgent',
  'origin',
  'createdAt',
];

/** The index of DESIGN §4 that every keyset query walks. */
const KEYSET_INDEX = 'IDX_submission_form_created_id';

/** "YYYY-MM-DD HH:MM:SS.mmm" UTC: how datetime(3) is stored on SQLite and compared on MySQL. */
export function sqlDatetime(date: Date): string {
  return date.toISOString().replace('T', ' ').replace('Z', '');
}

const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  ndjson: 'application/x-ndjson; charset=utf-8',
};

/** better-sqlite3 hands back DATETIME as "YYYY-MM-DD HH:MM:SS.SSS" in UTC. */
function toDate(value: Date | string): Date {
  if (value instanceof Date) return value;
  const iso = value.includes('T') ? value : value.replace(' ', 'T');
  return new Date(/(Z|[+-]\d\d:?\d\d)$/.test(iso) ? iso : `${iso}Z`);
}

/** MariaDB and SQLite return JSON columns as text, MySQL 8 as a parsed value. */
function toData(value: unknown): SubmissionData {
  const parsed: unknown = typeof value === 'string' ? JSON.parse(value) : value;
  return parsed !== null && typeof parsed === 'object'
    ? (parsed as SubmissionData)
    : {};
}

function positionOf(row: SubmissionRow): SubmissionPosition {
  return { createdAt: toDate(row.createdAt), id: row.id };
}

/** Connections on which the SQLite search function is registered. */
const sqliteSearchReady = new WeakSet<object>();

/** Listing, reading, deleting and exporting a form's submissions. */
@Injectable()
export class SubmissionsService {
  constructor(
    @InjectRepository(Submission)
    private readonly submissions: Repository<Submission>,
  ) {}

  /** One page, newest first, of the form's submissions matching the filters. */
  async list(
    form: Form,
    query: ListSubmissionsQuery = {},
  ): Promise<SubmissionPageDto> {
    const filters = parseFilters(query);
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
      throw new BadRequestException(
        `limit must be a whole number from 1 to ${MAX_PAGE_SIZE}`,
      );
    }
    let after: SubmissionPosition | undefined;
    if (query.cursor !== undefined) {
      after = decodeCursor(query.cursor);
      if (!after) throw new BadRequestException(INVALID_CURSOR);
    }
    // One row more than asked tells whether a next page exists, without a COUNT.
    const { rows, scannedThrough } = await this.read({
      formId: form.id,
      filters,
      direction: 'DESC',
      after,
      limit: limit + 1,
    });
    const page = rows.slice(0, limit);
    let next: SubmissionPosition | undefined;
    if (rows.length > limit) next = positionOf(page[limit - 1]);
    else next = scannedThrough;
    return {
      data: page.map((row) => this.map(row)),
      nextCursor: next ? encodeCursor(next) : null,
    };
  }

  async findOne(form: Form, submissionId: string): Promise<SubmissionDto> {
    const row = await this.submissions.findOneBy({
      formId: form.id,
      id: submissionId,
    });
    if (!row) throw new NotFoundException(SUBMISSION_NOT_FOUND);
    return this.map(row);
  }

  async remove(form: Form, submissionId: string): Promise<void> {
    const result = await this.submissions.delete({
      formId: form.id,
      id: submissionId,
    });
    if (!result.affected) throw new NotFoundException(SUBMISSION_NOT_FOUND);
  }

  /**
   * Deletes the form's submissions in [from, to) — all of them without bounds — in
   * batches. Without `to`, submissions that arrive while it runs are kept.
   */
  async removeMany(
    form: Form,
    range: Pick<SubmissionFilterInput, 'from' | 'to'> = {},
  ): Promise<DeletedSubmissionsDto> {
    const filters = parseFilters({ from: range.from, to: range.to });
    filters.to ??= new Date(Date.now() + 1);
    let deleted = 0;
    for (;;) {
      const ids = (
        await this.rows({
          formId: form.id,
          filters,
          direction: 'ASC',
          limit: DELETE_BATCH_SIZE,
          columns: ['id'],
        })
      ).map((row) => row.id);
      if (ids.length === 0) break;
      const result = await this.submissions
        .createQueryBuilder()
        .delete()
        .from(Submission)
        .where('formId = :formId', { formId: form.id })
        .andWhere('id IN (:...ids)', { ids })
        .execute();
      deleted += result.affected ?? 0;
      if (ids.length < DELETE_BATCH_SIZE) break;
    }
    return { deleted };
  }

  /** Submission count and latest submission time per form (forms without any: count 0). */
  async countByForms(
    formIds: readonly string[],
  ): Promise<Map<string, FormSubmissionStats>> {
    const stats = new Map<string, FormSubmissionStats>();
    for (const id of formIds) stats.set(id, { count: 0, lastAt: null });
    const unique = [...stats.keys()];
    for (let i = 0; i < unique.length; i += 500) {
      const rows = await this.submissions
        .createQueryBuilder('s')
        .select('s.formId', 'formId')
        .addSelect('COUNT(*)', 'count')
        .addSelect('MAX(s.createdAt)', 'lastAt')
        .where('s.formId IN (:...ids)', { ids: unique.slice(i, i + 500) })
        .groupBy('s.formId')
        .getRawMany<{
          formId: string;
          count: number | string;
          lastAt: Date | string | null;
        }>();
      for (const row of rows) {
        stats.set(row.formId, {
          count: Number(row.count),
          lastAt: row.lastAt === null ? null : toDate(row.lastAt),
        });
      }
    }
    return stats;
  }

  /**
   * Opens a streamed export, newest first, with the list's filters. The first batch is
   * read before this resolves, so a database failure still becomes an error response;
   * the rest is read batch by batch as the consumer pulls (keyset queries, never
   * OFFSET), and destroying the stream stops the reading.
   */
  async openExport(
    form: Form,
    query: ExportSubmissionsQuery = {},
  ): Promise<SubmissionExport> {
    const format = query.format ?? 'csv';
    const filters = parseFilters(query);
    let header = '';
    let encode: (row: SubmissionRow) => string;
    if (format === 'csv') {
      const columns =
        form.fields.length > 0
          ? form.fields.map((field) => field.id)
          : await this.keysInOrder(form.id, filters);
      header =
        (query.bom ? UTF8_BOM : '') + csvRow(['id', 'createdAt', ...columns]);
      encode = (row) => this.csvLine(row, columns);
    } else {
      encode = (row) => this.ndjsonLine(row);
    }
    const selected = format === 'csv' ? CSV_COLUMNS : ALL_COLUMNS;
    const first = await this.read({
      formId: form.id,
      filters,
      direction: 'DESC',
      limit: EXPORT_BATCH_SIZE,
      columns: selected,
    });
    return {
      stream: Readable.from(
        this.exportChunks(form.id, filters, selected, first, header, encode),
        // Strings go to the socket as they are (Node encodes them into memory it
        // frees once written, not into Buffers waiting for a GC); a few chunks are
        // read ahead.
        { objectMode: true, highWaterMark: 4 },
      ),
      contentType: CONTENT_TYPES[format],
      filename: exportFilename(form.name, format),
    };
  }

  /** Writes an export into `destination` (e.g. a dashboard response), resolving at the end. */
  async writeExport(
    form: Form,
    query: ExportSubmissionsQuery,
    destination: Writable,
  ): Promise<void> {
    const { stream } = await this.openExport(form, query);
    await pipeline(stream, destination);
  }

  private async *exportChunks(
    formId: string,
    filters: SubmissionFilters,
    columns: ReadonlyArray<keyof SubmissionRow>,
    first: RowBatch,
    header: string,
    encode: (row: SubmissionRow) => string,
  ): AsyncGenerator<string> {
    let batch = first;
    let chunk = header;
    for (;;) {
      for (const row of batch.rows) {
        chunk += encode(row);
        if (chunk.length >= EXPORT_CHUNK_CHARS) {
          yield chunk;
          chunk = '';
        }
      }
      const after = this.resumeAfter(batch, EXPORT_BATCH_SIZE);
      if (!after) break;
      batch = await this.read({
        formId,
        filters,
        direction: 'DESC',
        after,
        limit: EXPORT_BATCH_SIZE,
        columns,
      });
    }
    if (chunk !== '') yield chunk;
  }

  /** Where the read after a full or search-bounded batch continues; undefined at the end. */
  private resumeAfter(
    batch: RowBatch,
    limit: number,
  ): SubmissionPosition | undefined {
    if (batch.rows.length >= limit)
      return positionOf(batch.rows[batch.rows.length - 1]);
    return batch.scannedThrough;
  }

  /**
   * `rows()`, with a `q` search confined to the next SEARCH_SCAN_ROWS submissions in
   * order: the window's last position is found on the index alone (an index-only
   * scan of a fixed size, whatever the depth), and the search runs inside it.
   */
  private async read(query: RowQuery): Promise<RowBatch> {
    if (!query.filters.q) return { rows: await this.rows(query) };
    const [end] = await this.rows({
      ...query,
      filters: { ...query.filters, q: undefined },
      columns: ['createdAt', 'id'],
      limit: 1,
      offset: SEARCH_SCAN_ROWS - 1,
    });
    const through = end ? positionOf(end) : undefined;
    return {
      rows: await this.rows({ ...query, through }),
      scannedThrough: through,
    };
  }

  /**
   * The CSV columns of a form without configured fields: every key seen, in the order
   * keys first appear over time (oldest submission first). One pass over the matching
   * rows in batches; only the key set is kept.
   */
  private async keysInOrder(
    formId: string,
    filters: SubmissionFilters,
  ): Promise<string[]> {
    const keys = new Set<string>();
    let after: SubmissionPosition | undefined;
    for (;;) {
      const batch = await this.read({
        formId,
        filters,
        direction: 'ASC',
        after,
        limit: EXPORT_BATCH_SIZE,
        columns: ['id', 'createdAt', 'data'],
      });
      for (const row of batch.rows) {
        for (const key of Object.keys(toData(row.data))) {
          if (keys.size >= MAX_CSV_COLUMNS) return [...keys];
          keys.add(key);
        }
      }
      after = this.resumeAfter(batch, EXPORT_BATCH_SIZE);
      if (!after) return [...keys];
    }
  }

  private csvLine(row: SubmissionRow, columns: readonly string[]): string {
    const data = toData(row.data);
    const values: unknown[] = [row.id, toDate(row.createdAt).toISOString()];
    for (const column of columns) {
      values.push(Object.hasOwn(data, column) ? data[column] : undefined);
    }
    return csvRow(values);
  }

  /** The Submission shape of the API on one line; stored JSON text is passed through. */
  private ndjsonLine(row: SubmissionRow): string {
    const data =
      typeof row.data === 'string' &&
      row.data.startsWith('{') &&
      !/[\r\n\u2028\u2029]/.test(row.data)
        ? row.data
        : JSON.stringify(toData(row.data));
    return (
      `{"id":${JSON.stringify(row.id)},"formId":${JSON.stringify(row.formId)},` +
      `"data":${data},"createdAt":"${toDate(row.createdAt).toISOString()}",` +
      `"meta":{"ip":${JSON.stringify(row.ip)},"userAgent":${JSON.stringify(row.userAgent)},` +
      `"origin":${JSON.stringify(row.origin)}}}\n`
    );
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
  private rows(query: RowQuery): Promise<SubmissionRow[]> {
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
    if (q && this.isSqlite()) {
      this.registerSqliteSearch();
      where.push(`${SQLITE_SEARCH_FUNCTION}(${e('data')}, ?) = 1`);
      params.push(q);
    } else if (q) {
      where.push(
        `LOWER(CAST(JSON_EXTRACT(${e('data')}, '$.*') AS CHAR)) LIKE ? ESCAPE '${LIKE_ESCAPE}'`,
      );
      params.push(mysqlSearchPattern(q));
    }
    const table = this.isSqlite()
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

  private isSqlite(): boolean {
    return (
      this.submissions.manager.connection.options.type === 'better-sqlite3'
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

  /** The one place a stored row becomes the API's Submission. */
  private map(row: SubmissionRow): SubmissionDto {
    return {
      id: row.id,
      formId: row.formId,
      data: toData(row.data),
      createdAt: toDate(row.createdAt).toISOString(),
      meta: { ip: row.ip, userAgent: row.userAgent, origin: row.origin },
    };
  }
}
