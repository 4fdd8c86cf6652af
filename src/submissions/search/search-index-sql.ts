// The SQL of the full-text index (docs/inbox.md) for both dialects: SQLite's FTS5 table
// (submission_fts, keyed through submission_search) and InnoDB's FULLTEXT index on
// submission_search.body; and how far the indexer has come (search_index_state).
import { quoteIdentifier } from '../../common/database/sql-identifier.js';
import type {
  SqlDialect,
  SqlStatement,
} from '../../common/database/sql-statement.js';

export const SEARCH_STATE = 'submissions';

export class SearchIndexSql {
  constructor(readonly dialect: SqlDialect) {}

  e(name: string): string {
    return quoteIdentifier(this.dialect, name);
  }

  /** The indexer's position: the id of the last submission indexed. */
  state(): SqlStatement {
    const e = (n: string) => this.e(n);
    return {
      sql: `SELECT ${e('lastId')} FROM ${e('search_index_state')} WHERE ${e('name')} = ?`,
      params: [SEARCH_STATE],
    };
  }

  saveState(lastId: string): SqlStatement {
    const e = (n: string) => this.e(n);
    const insert = `INSERT INTO ${e('search_index_state')} (${e('name')}, ${e('lastId')}) VALUES (?, ?) `;
    return {
      sql:
        this.dialect === 'sqlite'
          ? `${insert}ON CONFLICT (${e('name')}) DO UPDATE SET ${e('lastId')} = excluded.${e('lastId')}`
          : `${insert}ON DUPLICATE KEY UPDATE ${e('lastId')} = VALUES(${e('lastId')})`,
      params: [SEARCH_STATE, lastId],
    };
  }

  /** The next submissions to index, in id order, older than `before` (along the primary key). */
  pending(afterId: string, before: string, limit: number): SqlStatement {
    const e = (n: string) => this.e(n);
    return {
      sql:
        `SELECT ${e('id')}, ${e('data')} FROM ${e('submission')} WHERE ${e('id')} > ? ` +
        `AND ${e('createdAt')} < ? ORDER BY ${e('id')} LIMIT ${Math.trunc(limit)}`,
      params: [afterId, before],
    };
  }

  /** SQLite: a submission's key row (its seq is the FTS5 rowid); nothing if it has one. */
  sqliteKey(): string {
    return `INSERT INTO "submission_search" ("submissionId") VALUES (?) ON CONFLICT DO NOTHING`;
  }

  /** SQLite: whether the submission is still there (one deleted meanwhile is not indexed). */
  sqliteExists(): string {
    return `SELECT 1 FROM "submission" WHERE "id" = ?`;
  }

  sqliteText(): string {
    return `INSERT INTO "submission_fts" ("rowid", "body") VALUES (?, ?)`;
  }

  /** MySQL/MariaDB: the text of `rows` submissions (a deleted one is skipped). */
  mysqlText(rows: number): string {
    return (
      'INSERT IGNORE INTO `submission_search` (`submissionId`, `body`) VALUES ' +
      Array.from({ length: rows }, () => '(?, ?)').join(', ')
    );
  }

  /** The form's submissions whose text holds every word (at most `limit`). */
  candidates(formId: string, match: string, limit: number): SqlStatement {
    if (this.dialect === 'sqlite') {
      return {
        sql:
          `SELECT "s"."id" FROM "submission_fts" JOIN "submission_search" "k" ON "k"."seq" = "submission_fts"."rowid" ` +
          `JOIN "submission" "s" ON "s"."id" = "k"."submissionId" ` +
          `WHERE "submission_fts" MATCH ? AND "s"."formId" = ? LIMIT ${Math.trunc(limit)}`,
        params: [match, formId],
      };
    }
    return {
      sql:
        'SELECT `s`.`id` FROM `submission_search` `t` JOIN `submission` `s` ON `s`.`id` = `t`.`submissionId` ' +
        `WHERE MATCH(\`t\`.\`body\`) AGAINST (? IN BOOLEAN MODE) AND \`s\`.\`formId\` = ? LIMIT ${Math.trunc(limit)}`,
      params: [match, formId],
    };
  }

  /**
   * SQLite: the next `limit` of the form's submissions whose text holds every word, in
   * index order after the entry `afterSeq` — a search's count walks them a page at a time.
   */
  candidatePage(
    formId: string,
    match: string,
    afterSeq: number,
    limit: number,
  ): SqlStatement {
    return {
      sql:
        `SELECT "k"."seq" AS "seq", "s"."id" AS "id" FROM "submission_fts" ` +
        `JOIN "submission_search" "k" ON "k"."seq" = "submission_fts"."rowid" ` +
        `JOIN "submission" "s" ON "s"."id" = "k"."submissionId" ` +
        `WHERE "submission_fts" MATCH ? AND "submission_fts"."rowid" > ? AND "s"."formId" = ? ` +
        `ORDER BY "submission_fts"."rowid" LIMIT ${Math.trunc(limit)}`,
      params: [match, afterSeq, formId],
    };
  }

  /** Empties the index (search:rebuild starts it over). */
  clear(): string[] {
    return this.dialect === 'sqlite'
      ? [
          `INSERT INTO "submission_fts" ("submission_fts") VALUES ('delete-all')`,
          'DELETE FROM "submission_search"',
          'DELETE FROM "search_index_state"',
        ]
      : ['DELETE FROM `submission_search`', 'DELETE FROM `search_index_state`'];
  }
}
