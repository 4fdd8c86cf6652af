// The SQL text of every submission query, for both dialects, built without a connection
// so that submission-sql.spec.ts can snapshot it. The per-database differences live
// here: identifier quoting, the forced keyset index on MySQL/MariaDB, and how a `q`
// search and a UTC day are written. SubmissionRepository runs what this builds.
import type { SubmissionPosition } from './queries/cursor.js';
import type { SubmissionFilters } from './queries/submission-filters.js';
import { sqlDatetime } from '../common/database/sql-dates.js';
import { type SubmissionRow } from './queries/submission-rows.js';
import {
  jsonStringContent,
  LIKE_ESCAPE,
  likeContains,
  mysqlSearchPattern,
  SQLITE_SEARCH_FUNCTION,
} from './queries/submission-search.js';

import type {
  SqlDialect,
  SqlStatement,
} from '../common/database/sql-statement.js';
import { quoteIdentifier } from '../common/database/sql-identifier.js';

export type { SqlDialect, SqlStatement };

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
  /** Only these ids (the full-text search's candidates). */
  ids?: readonly string[];
}

export const ALL_COLUMNS: ReadonlyArray<keyof SubmissionRow> = [
  'id',
  'formId',
  'data',
  'ip',
  'userAgent',
  'origin',
  'createdAt',
  'spam',
  'spamReasons',
  'status',
  'assigneeId',
];

/**
 * The index of the data model that every keyset query walks: (formId, spam, createdAt,
 * id). Every statement names the folder (`spam = ?`, or both values for a form's
 * every row), so each is a range of it.
 */
export const KEYSET_INDEX = 'IDX_submission_form_spam_created_id';
/** (formId, spam, status, createdAt, id): the status tabs' keyset index. */
export const STATUS_KEYSET_INDEX = 'IDX_submission_form_spam_status_created_id';

/** Submissions a duplicate check compares against, newest first (see recentFromIp). */
export const DUPLICATE_SCAN_ROWS = 2000;

/** Builds the statements of SubmissionRepository for one dialect. */
export class SubmissionSql {
  constructor(readonly dialect: SqlDialect) {}

  /** Quotes an identifier the way the TypeORM driver of the dialect does. */
  e(name: string): string {
    return quoteIdentifier(this.dialect, name);
  }

  /**
   * The one query behind list, export and bulk delete: formId equality, createdAt
   * bounds, the keyset position and the search, ordered along the keyset index (its name
   * and columns are the entity's, submission.entity.ts) with a LIMIT — never OFFSET.
   * On MySQL/MariaDB the index is forced: without the hint MariaDB reads the keyset
   * predicate as a `ref` on formId plus a filter, walking (and fetching) every row
   * newer than the cursor, so deep pages would cost O(depth). With it, the OR below
   * becomes an index range that starts right at the cursor (EXPLAIN: range, all four
   * key parts; Handler_read_prev = page size).
   */
  rows(query: RowQuery): SqlStatement {
    const e = (name: string) => this.e(name);
    const createdAt = e('createdAt');
    const id = e('id');
    // A list of ids is found by the primary key: on SQLite `+` keeps the planner from
    // walking the form's range instead.
    const unindexed =
      query.ids !== undefined && this.dialect === 'sqlite' ? '+' : '';
    const where = [
      `${unindexed}${e('formId')} = ?`,
      `${unindexed}${e('spam')} = ?`,
    ];
    const params: unknown[] = [query.formId, query.filters.spam ? 1 : 0];
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
    if (query.filters.status !== undefined) {
      where.push(`${e('status')} = ?`);
      params.push(query.filters.status);
    }
    if (query.filters.assignee === null) {
      where.push(`${e('assigneeId')} IS NULL`);
    } else if (query.filters.assignee !== undefined) {
      where.push(`${e('assigneeId')} = ?`);
      params.push(query.filters.assignee);
    }
    if (query.filters.labelId !== undefined) {
      where.push(
        `EXISTS (SELECT 1 FROM ${e('submission_label')} ${e('sl')} WHERE ${e('sl')}.${e('submissionId')} = ${e('submission')}.${id} AND ${e('sl')}.${e('labelId')} = ?)`,
      );
      params.push(query.filters.labelId);
    }
    if (query.ids !== undefined) {
      where.push(`${id} IN (${query.ids.map(() => '?').join(', ')})`);
      params.push(...query.ids);
    }
    if (q && this.dialect === 'sqlite') {
      where.push(`${SQLITE_SEARCH_FUNCTION}(${e('data')}, ?) = 1`);
      params.push(q);
    } else if (q) {
      where.push(
        `LOWER(CAST(JSON_EXTRACT(${e('data')}, '$.*') AS CHAR)) LIKE ? ESCAPE '${LIKE_ESCAPE}'`,
      );
      params.push(mysqlSearchPattern(q));
    }
    // A status tab walks the index that has the status after the folder.
    const index =
      query.filters.status !== undefined ? STATUS_KEYSET_INDEX : KEYSET_INDEX;
    const table =
      this.dialect === 'sqlite' || query.ids !== undefined
        ? e('submission')
        : `${e('submission')} FORCE INDEX (${e(index)})`;
    const columns = (query.columns ?? ALL_COLUMNS).map(e).join(', ');
    const direction = query.direction;
    return {
      sql:
        `SELECT ${columns} FROM ${table} WHERE ${where.join(' AND ')} ` +
        `ORDER BY ${createdAt} ${direction}, ${id} ${direction} LIMIT ${Math.trunc(query.limit)}` +
        (query.offset ? ` OFFSET ${Math.trunc(query.offset)}` : ''),
      params,
    };
  }

  /** One submission of a form, every column. */
  findOne(formId: string, id: string): SqlStatement {
    const e = (name: string) => this.e(name);
    return {
      sql:
        `SELECT ${ALL_COLUMNS.map(e).join(', ')} FROM ${e('submission')} ` +
        `WHERE ${e('formId')} = ? AND ${e('id')} = ? LIMIT 1`,
      params: [formId, id],
    };
  }

  /** The listed submissions, whatever their form (the notification worker's reads). */
  findMany(
    ids: readonly string[],
    columns: ReadonlyArray<keyof SubmissionRow> = ALL_COLUMNS,
  ): SqlStatement {
    const e = (name: string) => this.e(name);
    return {
      sql:
        `SELECT ${columns.map(e).join(', ')} FROM ${e('submission')} ` +
        `WHERE ${e('id')} IN (${ids.map(() => '?').join(', ')})`,
      params: [...ids],
    };
  }

  /** What the counters need of the listed submissions of a form (before they change). */
  countedRows(formId: string, ids: readonly string[]): SqlStatement {
    const e = (name: string) => this.e(name);
    return {
      sql:
        `SELECT ${e('formId')}, ${e('spam')}, ${e('status')}, ${e('createdAt')} FROM ${e('submission')} ` +
        `WHERE ${e('formId')} = ? AND ${e('id')} IN (${ids.map(() => '?').join(', ')})` +
        (this.dialect === 'mysql' ? ' FOR UPDATE' : ''),
      params: [formId, ...ids],
    };
  }

  /** Deletes the listed submissions of a form (one, or a bulk-delete batch). */
  deleteIds(formId: string, ids: readonly string[]): SqlStatement {
    const e = (name: string) => this.e(name);
    return {
      sql:
        `DELETE FROM ${e('submission')} WHERE ${e('formId')} = ? ` +
        `AND ${e('id')} IN (${ids.map(() => '?').join(', ')})`,
      params: [formId, ...ids],
    };
  }

  /** Count and latest createdAt per form (of one folder), for forms that have any. */
  countByForms(formIds: readonly string[], spam = false): SqlStatement {
    const e = (name: string) => this.e(name);
    return {
      sql:
        `SELECT ${e('formId')} AS ${e('formId')}, COUNT(*) AS ${e('count')}, ` +
        `MAX(${e('createdAt')}) AS ${e('lastAt')} FROM ${e('submission')} ` +
        `WHERE ${e('formId')} IN (${formIds.map(() => '?').join(', ')}) ` +
        `AND ${e('spam')} = ? GROUP BY ${e('formId')}`,
      params: [...formIds, spam ? 1 : 0],
    };
  }

  /**
   * Submissions per UTC day (YYYY-MM-DD) from `first` on: createdAt is stored as text
   * on SQLite and as DATETIME on MySQL/MariaDB.
   */
  dailyCounts(formId: string, first: Date): SqlStatement {
    const e = (name: string) => this.e(name);
    const day =
      this.dialect === 'sqlite'
        ? `substr(${e('createdAt')}, 1, 10)`
        : `DATE_FORMAT(${e('createdAt')}, '%Y-%m-%d')`;
    return {
      sql:
        `SELECT ${day} AS ${e('day')}, COUNT(*) AS ${e('count')} ` +
        `FROM ${e('submission')} WHERE ${e('formId')} = ? AND ${e('spam')} = 0 ` +
        `AND ${e('createdAt')} >= ? GROUP BY ${e('day')}`,
      params: [formId, sqlDatetime(first)],
    };
  }

  /**
   * How many of a form's submissions (of one folder, of one status when given) lie in
   * [from, to): a range of the keyset index, or of the status tabs' index.
   */
  countInRange(
    formId: string,
    range: Pick<SubmissionFilters, 'from' | 'to' | 'spam' | 'status'>,
  ): SqlStatement {
    const e = (name: string) => this.e(name);
    const where = [`${e('formId')} = ?`, `${e('spam')} = ?`];
    const params: unknown[] = [formId, range.spam ? 1 : 0];
    if (range.status) {
      where.push(`${e('status')} = ?`);
      params.push(range.status);
    }
    if (range.from) {
      where.push(`${e('createdAt')} >= ?`);
      params.push(sqlDatetime(range.from));
    }
    if (range.to) {
      where.push(`${e('createdAt')} < ?`);
      params.push(sqlDatetime(range.to));
    }
    return {
      sql: `SELECT COUNT(*) AS ${e('count')} FROM ${e('submission')} WHERE ${where.join(' AND ')}`,
      params,
    };
  }

  /**
   * Erasure's scan: the next `limit` submissions of one folder of a form (spam, or clean)
   * after `after`, oldest first along the keyset index — naming the folder keeps the
   * order the index's own, so a window reads `limit` entries instead of sorting the
   * form's rows — each with its `data` only when the stored JSON
   * text holds `needle` (lower-case) — a cheap prefilter, which the caller confirms on
   * the values. On SQLite an ASCII needle is found by the built-in instr() on the
   * ASCII-lowered text; any other goes through the search function, which folds Unicode.
   */
  addressWindow(
    formId: string,
    spam: boolean,
    after: SubmissionPosition | undefined,
    limit: number,
    needle: string,
  ): SqlStatement {
    const e = (name: string) => this.e(name);
    const createdAt = e('createdAt');
    const data = e('data');
    let predicate: string;
    let pattern: string;
    if (this.dialect === 'mysql') {
      predicate = `LOWER(CAST(${data} AS CHAR)) LIKE ? ESCAPE '${LIKE_ESCAPE}'`;
      pattern = likeContains(jsonStringContent(needle));
    } else if (/^[\x20-\x7e]*$/.test(needle)) {
      predicate = `instr(lower(${data}), ?) > 0`;
      pattern = jsonStringContent(needle);
    } else {
      predicate = `${SQLITE_SEARCH_FUNCTION}(${data}, ?) = 1`;
      pattern = needle;
    }
    const params: unknown[] = [pattern, formId, spam ? 1 : 0];
    const where = [`${e('formId')} = ?`, `${e('spam')} = ?`];
    if (after) {
      const at = sqlDatetime(after.createdAt);
      where.push(
        `${createdAt} >= ?`,
        `(${createdAt} > ? OR (${createdAt} = ? AND ${e('id')} > ?))`,
      );
      params.push(at, at, at, after.id);
    }
    const table =
      this.dialect === 'sqlite'
        ? e('submission')
        : `${e('submission')} FORCE INDEX (${e(KEYSET_INDEX)})`;
    return {
      sql:
        `SELECT ${e('id')}, ${createdAt}, CASE WHEN ${predicate} THEN ${data} END AS ${data} ` +
        `FROM ${table} WHERE ${where.join(' AND ')} ` +
        `ORDER BY ${createdAt} ASC, ${e('id')} ASC LIMIT ${Math.trunc(limit)}`,
      params,
    };
  }

  /** Every column of the listed submissions of a form, oldest first. */
  rowsByIds(formId: string, ids: readonly string[]): SqlStatement {
    const e = (name: string) => this.e(name);
    return {
      sql:
        `SELECT ${ALL_COLUMNS.map(e).join(', ')} FROM ${e('submission')} ` +
        `WHERE ${e('formId')} = ? AND ${e('id')} IN (${ids.map(() => '?').join(', ')}) ` +
        `ORDER BY ${e('createdAt')} ASC, ${e('id')} ASC`,
      params: [formId, ...ids],
    };
  }

  /**
   * The data of the clean submissions from `ip` among the form's latest
   * DUPLICATE_SCAN_ROWS since `since`: a bounded range of the keyset index, whatever
   * the form's traffic.
   */
  recentFromIp(formId: string, ip: string, since: Date): SqlStatement {
    const e = (name: string) => this.e(name);
    const table =
      this.dialect === 'sqlite'
        ? e('submission')
        : `${e('submission')} FORCE INDEX (${e(KEYSET_INDEX)})`;
    return {
      sql:
        `SELECT ${e('data')} FROM (SELECT ${e('ip')}, ${e('data')} FROM ${table} ` +
        `WHERE ${e('formId')} = ? AND ${e('spam')} = 0 AND ${e('createdAt')} >= ? ` +
        `ORDER BY ${e('createdAt')} DESC, ${e('id')} DESC LIMIT ${DUPLICATE_SCAN_ROWS}) ${e('recent')} ` +
        `WHERE ${e('ip')} = ?`,
      params: [formId, sqlDatetime(since), ip],
    };
  }

  /**
   * Moves one submission into (spam) or out of the spam folder, only if it is in the
   * other one: the affected-row count says whether this call moved it.
   */
  moveToFolder(
    formId: string,
    id: string,
    spam: boolean,
    reasons: string | null,
  ): SqlStatement {
    const e = (name: string) => this.e(name);
    return {
      sql:
        `UPDATE ${e('submission')} SET ${e('spam')} = ?, ${e('spamReasons')} = ? ` +
        `WHERE ${e('formId')} = ? AND ${e('id')} = ? AND ${e('spam')} = ?`,
      params: [spam ? 1 : 0, reasons, formId, id, spam ? 0 : 1],
    };
  }
}
