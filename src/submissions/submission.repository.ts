// Every read of stored submissions, and their deletion with the counters (the submit path
// writes them; deletion/submission-deletion.service.ts is the one path that deletes them).
// Bulk reads (list, search, export, bulk delete, erasure) are keyset queries along the keyset
// index (submission.entity.ts); a `q` search is confined to a fixed window of rows, examined
// on SQLite in small chunks that take turns on the event loop (common/runtime/event-loop-turns.ts).
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type BetterSqlite3 from 'better-sqlite3';
import type { DataSource, EntityManager, QueryRunner } from 'typeorm';
import { takeTurn } from '../common/runtime/event-loop-turns.js';
import { FormCounterSql } from './counters/form-counter-sql.js';
import { ulidTime } from '../common/values/ulid.js';
import { SearchIndexSql } from './search/search-index-sql.js';
import { matchQuery, searchWords } from './search/search-text.js';
import {
  CounterChanges,
  writeCounterChanges,
  type CountedRow,
} from './counters/form-counters.js';
import type { SubmissionPosition } from './queries/cursor.js';
import type { SubmissionFilters } from './queries/submission-filters.js';
import { toDate } from '../common/database/sql-dates.js';
import {
  positionOf,
  type RowBatch,
  type SubmissionRow,
} from './queries/submission-rows.js';
import {
  valuesContain,
  SQLITE_SEARCH_FUNCTION,
} from './queries/submission-search.js';
import {
  SubmissionSql,
  type RowQuery,
  type SqlStatement,
} from './submission-sql.js';

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

/** Submissions the full-text index may propose for one request before the scan answers. */
export const SEARCH_CANDIDATES = 5000;
/** How far before the indexer's position a search scans rows itself. */
export const SEARCH_TAIL_MS = 10_000;
/** The most not-yet-indexed rows a search scans itself (else the indexer is behind: scan). */
export const SEARCH_TAIL_ROWS = 2000;

/** Forms per statement when counting submissions of many forms. */
const COUNT_FORMS_BATCH = 500;

export interface FormSubmissionStats {
  count: number;
  lastAt: Date | null;
}

/** Connections on which the SQLite search function is registered. */
const sqliteSearchReady = new WeakSet<object>();

@Injectable()
export class SubmissionRepository {
  readonly sql: SubmissionSql;
  private readonly counterSql: FormCounterSql;
  private readonly searchSql: SearchIndexSql;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.sql = new SubmissionSql(
      dataSource.options.type === 'better-sqlite3' ? 'sqlite' : 'mysql',
    );
    this.counterSql = new FormCounterSql(this.sql.dialect);
    this.searchSql = new SearchIndexSql(this.sql.dialect);
  }

  get isSqlite(): boolean {
    return this.sql.dialect === 'sqlite';
  }

  /**
   * `rows()`, with a `q` search confined to the next SEARCH_SCAN_ROWS submissions in
   * order: the window's last position is found on the index alone (an index-only
   * scan of a fixed size, whatever the depth), and the search runs inside it.
   */
  async read(query: RowQuery): Promise<RowBatch> {
    if (!query.filters.q) return { rows: await this.rows(query) };
    const indexed = await this.searchIndexed(query);
    if (indexed) return { rows: indexed };
    if (this.isSqlite) return this.searchInChunks(query);
    const through = await this.windowEnd(query, query.after, SEARCH_SCAN_ROWS);
    return {
      rows: await this.rows({ ...query, through }),
      scannedThrough: through,
    };
  }

  /** The keyset query of SubmissionSql.rows(), run. */
  rows(query: RowQuery): Promise<SubmissionRow[]> {
    if (query.filters.q) this.registerSqliteSearch();
    return this.run<SubmissionRow[]>(this.sql.rows(query));
  }

  async findOne(
    formId: string,
    id: string,
  ): Promise<SubmissionRow | undefined> {
    const [row] = await this.run<SubmissionRow[]>(this.sql.findOne(formId, id));
    return row;
  }

  /** The listed submissions that exist, with `columns` (every column by default). */
  async findMany(
    ids: readonly string[],
    columns?: ReadonlyArray<keyof SubmissionRow>,
  ): Promise<SubmissionRow[]> {
    if (ids.length === 0) return [];
    return this.run<SubmissionRow[]>(this.sql.findMany(ids, columns));
  }

  /**
   * One window of erasure's scan (SubmissionSql.addressWindow): the ids and positions
   * of the next `limit` submissions of one folder, with `data` set only on those whose stored text
   * holds `needle`.
   */
  addressWindow(
    formId: string,
    spam: boolean,
    after: SubmissionPosition | undefined,
    limit: number,
    needle: string,
  ): Promise<Array<Pick<SubmissionRow, 'id' | 'createdAt' | 'data'>>> {
    this.registerSqliteSearch();
    return this.run(this.sql.addressWindow(formId, spam, after, limit, needle));
  }

  /** Every column of the listed submissions of a form, oldest first. */
  rowsByIds(formId: string, ids: readonly string[]): Promise<SubmissionRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.run(this.sql.rowsByIds(formId, ids));
  }

  /**
   * Submission count and latest submission time per form (forms without any: count 0),
   * of the clean submissions or (spam) of the spam folder.
   */
  async countByForms(
    formIds: readonly string[],
    spam = false,
  ): Promise<Map<string, FormSubmissionStats>> {
    const stats = new Map<string, FormSubmissionStats>();
    for (const id of formIds) stats.set(id, { count: 0, lastAt: null });
    const unique = [...stats.keys()];
    for (let i = 0; i < unique.length; i += COUNT_FORMS_BATCH) {
      const rows = await this.run<
        Array<{
          formId: string;
          count: number | string;
          lastAt: Date | string | null;
        }>
      >(this.sql.countByForms(unique.slice(i, i + COUNT_FORMS_BATCH), spam));
      for (const row of rows) {
        stats.set(row.formId, {
          count: Number(row.count),
          lastAt: row.lastAt === null ? null : toDate(row.lastAt),
        });
      }
    }
    return stats;
  }

  /** Submission counts per UTC day (YYYY-MM-DD) from `first` on; days without any are absent. */
  async dailyCounts(formId: string, first: Date): Promise<Map<string, number>> {
    const rows = await this.run<Array<{ day: string; count: number | string }>>(
      this.sql.dailyCounts(formId, first),
    );
    return new Map(rows.map((row) => [row.day, Number(row.count)]));
  }

  async countInRange(
    formId: string,
    range: Pick<SubmissionFilters, 'from' | 'to' | 'spam' | 'status'>,
  ): Promise<number> {
    const [row] = await this.run<Array<{ count: number | string }>>(
      this.sql.countInRange(formId, range),
    );
    return Number(row?.count ?? 0);
  }

  /** The data of recent clean submissions of the form from `ip` (see SubmissionSql). */
  async recentDataFromIp(
    formId: string,
    ip: string,
    since: Date,
  ): Promise<unknown[]> {
    const rows = await this.run<Array<{ data: unknown }>>(
      this.sql.recentFromIp(formId, ip, since),
    );
    return rows.map((row) => row.data);
  }

  /**
   * Moves a submission into or out of the spam folder when it is in the other one, with
   * the form's counters; true when this call moved it. `runner`: inside that runner's
   * transaction (else in one of its own).
   */
  async moveToFolder(
    formId: string,
    id: string,
    spam: boolean,
    reasons: readonly string[],
    runner?: QueryRunner,
  ): Promise<boolean> {
    if (runner === undefined) {
      return this.dataSource.transaction((manager) =>
        this.moveToFolder(formId, id, spam, reasons, manager.queryRunner!),
      );
    }
    const { sql, params } = this.sql.moveToFolder(
      formId,
      id,
      spam,
      spam ? JSON.stringify(reasons) : null,
    );
    const result = await runner.query(sql, params, true);
    if ((result.affected ?? 0) === 0) return false;
    const counted = this.sql.countedRows(formId, [id]);
    const [row] = (await runner.query(
      counted.sql,
      counted.params,
    )) as CountedRow[];
    if (row) {
      const changes = new CounterChanges()
        .row({ ...row, spam: !spam }, -1)
        .row({ ...row, spam }, 1);
      await writeCounterChanges(
        (text, values) => runner.query(text, values),
        this.counterSql,
        changes,
      );
    }
    return true;
  }

  /**
   * Deletes the listed submissions of a form in `manager`'s transaction, with what they
   * counted (their rows read locked first, so the counters lose exactly what is deleted);
   * answers how many were deleted.
   */
  async deleteIn(
    manager: EntityManager,
    formId: string,
    ids: readonly string[],
  ): Promise<number> {
    const counted = this.sql.countedRows(formId, ids);
    const rows = await manager.query<CountedRow[]>(counted.sql, counted.params);
    const { sql, params } = this.sql.deleteIds(formId, ids);
    const result = await manager.queryRunner!.query(sql, params, true);
    const changes = new CounterChanges();
    for (const row of rows) changes.row(row, -1);
    await writeCounterChanges(
      (text, values) => manager.query(text, values),
      this.counterSql,
      changes,
    );
    return Number(result.affected ?? 0);
  }

  /**
   * A `q` answered from the full-text index (docs/inbox.md): the form's submissions whose
   * words start with the search's words, confirmed by the search itself, and the newest
   * rows the indexer has not reached yet, scanned. Undefined when the index cannot answer:
   * a word too short or too common for it, no index yet, the indexer far behind, or more
   * candidates than one request examines — the windowed scan answers then.
   */
  private async searchIndexed(
    query: RowQuery,
  ): Promise<SubmissionRow[] | undefined> {
    const words = searchWords(query.filters.q!);
    if (!words) return undefined;
    const [state] = await this.run<Array<{ lastId: string }>>(
      this.searchSql.state(),
    );
    const indexedAt = state ? ulidTime(state.lastId) : NaN;
    if (Number.isNaN(indexedAt)) return undefined;
    // Rows from here on may not be indexed yet: they are scanned, at most SEARCH_TAIL_ROWS.
    const tailFrom = new Date(indexedAt - SEARCH_TAIL_MS);
    const from =
      query.filters.from && query.filters.from > tailFrom
        ? query.filters.from
        : tailFrom;
    const tailFilters = { ...query.filters, from };
    const tooLong = await this.windowEnd(
      { ...query, filters: tailFilters },
      undefined,
      SEARCH_TAIL_ROWS,
    );
    if (tooLong) return undefined;
    const candidates = await this.run<Array<{ id: string }>>(
      this.searchSql.candidates(
        query.formId,
        matchQuery(words, this.sql.dialect),
        SEARCH_CANDIDATES + 1,
      ),
    );
    if (candidates.length > SEARCH_CANDIDATES) return undefined;
    this.registerSqliteSearch();
    const tail = await this.rows({ ...query, filters: tailFilters });
    const older =
      candidates.length === 0
        ? []
        : await this.rows({ ...query, ids: candidates.map((row) => row.id) });
    const seen = new Set<string>();
    const sign = query.direction === 'DESC' ? -1 : 1;
    return [...tail, ...older]
      .filter((row) => !seen.has(row.id) && seen.add(row.id))
      .sort((a, b) => {
        const at =
          toDate(a.createdAt).getTime() - toDate(b.createdAt).getTime();
        return sign * (at !== 0 ? at : a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
      })
      .slice(0, query.limit);
  }

  private run<T>({ sql, params }: SqlStatement): Promise<T> {
    return this.dataSource.query<T>(sql, params);
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

  /** SQLite's LOWER/LIKE fold ASCII only: values are matched by a JS function instead. */
  private registerSqliteSearch(): void {
    if (!this.isSqlite) return;
    const driver = this.dataSource.driver as unknown as {
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
