// How many of a form's submissions a `q` search finds in all — the line above the dashboard's
// results ("N submissions match") — in the same request and without reading the whole form:
// the full-text index's candidates, confirmed by the search's own filters, plus the newest
// rows the indexer has not reached, up to SEARCH_COUNT_CAP ("10,000+"). A search the index
// cannot answer is counted among the newest SEARCH_SCAN_ROWS rows ("N+" when older rows
// remain). Every statement reads at most COUNT_CHUNK rows and waits for a turn on the event
// loop first (the SQLite driver runs each statement on it).
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { takeTurn } from '../../common/runtime/event-loop-turns.js';
import { ulidTime } from '../../common/values/ulid.js';
import type { SubmissionPosition } from '../queries/cursor.js';
import type { SubmissionFilters } from '../queries/submission-filters.js';
import { positionOf } from '../queries/submission-rows.js';
import type { SqlStatement } from '../submission-sql.js';
import {
  SEARCH_SCAN_ROWS,
  SEARCH_TAIL_MS,
  SEARCH_TAIL_ROWS,
  SubmissionRepository,
} from '../submission.repository.js';
import { SearchIndexSql } from './search-index-sql.js';
import { matchQuery, searchWords } from './search-text.js';

/** The most a count says exactly; beyond it, "10,000+". */
export const SEARCH_COUNT_CAP = 10_000;
/** Rows (or index candidates) one counting statement reads. */
export const COUNT_CHUNK = 1000;

export interface MatchCount {
  count: number;
  /** More may match: the count stopped at the cap or at the end of what it may read. */
  atLeast: boolean;
}

@Injectable()
export class SearchCountRepository {
  private readonly sql: SearchIndexSql;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly submissions: SubmissionRepository,
  ) {
    this.sql = new SearchIndexSql(
      dataSource.options.type === 'better-sqlite3' ? 'sqlite' : 'mysql',
    );
  }

  /** The matches of `filters` (with a `q`) among the form's submissions. */
  async count(formId: string, filters: SubmissionFilters): Promise<MatchCount> {
    return (
      (await this.fromIndex(formId, filters)) ??
      (await this.byScan(formId, filters))
    );
  }

  /**
   * From the index, as the list answers from it (SubmissionRepository.read): the rows from
   * shortly before the indexer's position on are scanned, the older ones are the index's
   * candidates that pass every filter. Undefined where the list would not use the index.
   */
  private async fromIndex(
    formId: string,
    filters: SubmissionFilters,
  ): Promise<MatchCount | undefined> {
    const words = filters.q ? searchWords(filters.q) : undefined;
    if (!words) return undefined;
    const indexedAt = await this.indexedAt();
    if (indexedAt === undefined) return undefined;
    const tailFrom = new Date(indexedAt - SEARCH_TAIL_MS);
    const tail = { ...filters, from: later(filters.from, tailFrom) };
    if (await this.holds(formId, { ...tail, q: undefined }, SEARCH_TAIL_ROWS)) {
      return undefined;
    }
    let count = (await this.matching(formId, tail, SEARCH_TAIL_ROWS)).length;
    const older = { ...filters, to: earlier(filters.to, tailFrom) };
    const match = matchQuery(words, this.sql.dialect);
    let examined = 0;
    for (const next of this.candidatePages(formId, match)) {
      await takeTurn();
      const ids = await next();
      examined += ids.length;
      if (ids.length > 0) {
        count += (await this.matching(formId, older, ids.length, ids)).length;
      }
      if (count > SEARCH_COUNT_CAP) {
        return { count: SEARCH_COUNT_CAP, atLeast: true };
      }
      if (ids.length < COUNT_CHUNK) return { count, atLeast: false };
      if (examined >= SEARCH_COUNT_CAP) break;
    }
    return { count, atLeast: true };
  }

  /**
   * Pages of the index's candidates (ids) of the form, at most SEARCH_COUNT_CAP in all: on
   * SQLite each page is a statement of its own along the index; InnoDB answers a full-text
   * match whole, so there it is asked once and handed out a page at a time.
   */
  private *candidatePages(
    formId: string,
    match: string,
  ): Generator<() => Promise<string[]>> {
    if (this.sql.dialect === 'sqlite') {
      let after = 0;
      for (;;) {
        yield async () => {
          const rows = await this.run<Array<{ seq: number; id: string }>>(
            this.sql.candidatePage(formId, match, after, COUNT_CHUNK),
          );
          if (rows.length > 0) after = Number(rows[rows.length - 1].seq);
          return rows.map((row) => row.id);
        };
      }
    }
    let all: Promise<string[]> | undefined;
    for (let at = 0; ; at += COUNT_CHUNK) {
      yield async () => {
        all ??= this.run<Array<{ id: string }>>(
          this.sql.candidates(formId, match, SEARCH_COUNT_CAP),
        ).then((rows) => rows.map((row) => row.id));
        return (await all).slice(at, at + COUNT_CHUNK);
      };
    }
  }

  /**
   * Among the newest SEARCH_SCAN_ROWS submissions of the filters (`q` aside), the ones the
   * search finds — as many as the list's scan reads in one request.
   */
  private async byScan(
    formId: string,
    filters: SubmissionFilters,
  ): Promise<MatchCount> {
    const plain = { ...filters, q: undefined };
    let after: SubmissionPosition | undefined;
    let count = 0;
    for (let scanned = 0; scanned < SEARCH_SCAN_ROWS; scanned += COUNT_CHUNK) {
      await takeTurn();
      const [end] = await this.submissions.rows({
        formId,
        filters: plain,
        direction: 'DESC',
        after,
        columns: ['createdAt', 'id'],
        limit: 1,
        offset: COUNT_CHUNK - 1,
      });
      const through = end ? positionOf(end) : undefined;
      const found = await this.submissions.rows({
        formId,
        filters,
        direction: 'DESC',
        after,
        through,
        columns: ['id'],
        limit: COUNT_CHUNK,
      });
      count += found.length;
      if (!through) return { count, atLeast: false };
      after = through;
    }
    return { count, atLeast: await this.holds(formId, plain, 1, after) };
  }

  /** Whether `filters` (after `after`) hold at least `rows` submissions. */
  private async holds(
    formId: string,
    filters: SubmissionFilters,
    rows: number,
    after?: SubmissionPosition,
  ): Promise<boolean> {
    const found = await this.submissions.rows({
      formId,
      filters,
      direction: 'DESC',
      after,
      columns: ['id'],
      limit: 1,
      offset: rows - 1,
    });
    return found.length > 0;
  }

  /** The ids of at most `limit` submissions that pass `filters` (among `ids`, if given). */
  private matching(
    formId: string,
    filters: SubmissionFilters,
    limit: number,
    ids?: readonly string[],
  ): Promise<Array<{ id: string }>> {
    return this.submissions.rows({
      formId,
      filters,
      direction: 'DESC',
      columns: ['id'],
      limit,
      ids,
    });
  }

  /** When the indexer's last indexed submission arrived; undefined before any. */
  private async indexedAt(): Promise<number | undefined> {
    const [state] = await this.run<Array<{ lastId: string }>>(this.sql.state());
    const at = state ? ulidTime(state.lastId) : NaN;
    return Number.isNaN(at) ? undefined : at;
  }

  private run<T>({ sql, params }: SqlStatement): Promise<T> {
    return this.dataSource.query<T>(sql, params);
  }
}

function later(a: Date | undefined, b: Date): Date {
  return a && a > b ? a : b;
}

function earlier(a: Date | undefined, b: Date): Date {
  return a && a < b ? a : b;
}
