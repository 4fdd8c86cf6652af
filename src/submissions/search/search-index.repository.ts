// Every statement on the full-text index (docs/inbox.md) — submission_search (with
// SQLite's FTS5 table submission_fts) and the indexer's position, search_index_state — but
// the searches themselves, which SubmissionRepository runs with the rows they find. The
// SQL comes from SearchIndexSql. On SQLite a batch is written as one short synchronous
// transaction of prepared statements on the connection.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type BetterSqlite3 from 'better-sqlite3';
import type { DataSource } from 'typeorm';
import { takeTurn } from '../../common/event-loop-turns.js';
import { SearchIndexSql } from './search-index-sql.js';

/** A submission to index: its id and its stored data. */
export interface PendingRow {
  id: string;
  data: unknown;
}

@Injectable()
export class SearchIndexRepository {
  readonly sql: SearchIndexSql;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.sql = new SearchIndexSql(
      dataSource.options.type === 'better-sqlite3' ? 'sqlite' : 'mysql',
    );
  }

  /** Empties the index and forgets the indexer's position. */
  async clear(): Promise<void> {
    for (const statement of this.sql.clear()) {
      await this.dataSource.query(statement);
    }
  }

  /** The id of the last submission indexed ('' before the first). */
  async lastId(): Promise<string> {
    const { sql, params } = this.sql.state();
    const [row] = await this.dataSource.query<Array<{ lastId: string }>>(
      sql,
      params,
    );
    return row?.lastId ?? '';
  }

  /** The next submissions to index after `afterId`, older than `before`. */
  pending(
    afterId: string,
    before: string,
    limit: number,
  ): Promise<PendingRow[]> {
    const { sql, params } = this.sql.pending(afterId, before, limit);
    return this.dataSource.query<PendingRow[]>(sql, params);
  }

  /**
   * Writes the text of each row (`textOf` its data) and moves the indexer's position to the
   * last, in one transaction; a submission deleted meanwhile is skipped.
   */
  async write(
    rows: readonly PendingRow[],
    textOf: (data: unknown) => string,
  ): Promise<void> {
    const state = this.sql.saveState(rows[rows.length - 1].id);
    if (this.sql.dialect === 'sqlite') {
      const db = (
        this.dataSource.driver as unknown as {
          databaseConnection: BetterSqlite3.Database;
        }
      ).databaseConnection;
      // Wait for an open TypeORM transaction (or a commit batch) to end first.
      while (db.inTransaction) await takeTurn();
      const key = db.prepare(this.sql.sqliteKey());
      const text = db.prepare(this.sql.sqliteText());
      const save = db.prepare(state.sql);
      const exists = db.prepare(this.sql.sqliteExists());
      db.transaction(() => {
        for (const row of rows) {
          // A submission deleted meanwhile is gone from both: nothing to index.
          if (!exists.get(row.id)) continue;
          const result = key.run(row.id);
          if (result.changes === 0) continue;
          text.run(result.lastInsertRowid, textOf(row.data));
        }
        save.run(...state.params);
      }).immediate();
      return;
    }
    await this.dataSource.transaction(async (manager) => {
      await manager.query(
        this.sql.mysqlText(rows.length),
        rows.flatMap((row) => [row.id, textOf(row.data)]),
      );
      await manager.query(state.sql, state.params);
    });
  }
}
