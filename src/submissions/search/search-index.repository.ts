// The full-text index's own tables (docs/inbox.md): the indexer's position
// (search_index_state) and the indexed text (SQLite's submission_search + submission_fts,
// InnoDB's submission_search with its FULLTEXT index). Their SQL is in search-index-sql.ts.
// On SQLite the statements are prepared once on the driver's connection and run without
// the query builder: the indexer runs in the process that takes the submissions.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type BetterSqlite3 from 'better-sqlite3';
import type { DataSource } from 'typeorm';
import { takeTurn } from '../../common/runtime/event-loop-turns.js';
import { SearchIndexSql } from './search-index-sql.js';

/** A submission waiting to be indexed: its id and its stored data. */
export interface PendingSubmission {
  id: string;
  data: unknown;
}

/** SQLite: the index's statements, prepared once on the driver's connection. */
interface SqliteStatements {
  db: BetterSqlite3.Database;
  state: BetterSqlite3.Statement;
  /** The next rows, by batch size (the size is part of the statement). */
  pending: Map<number, BetterSqlite3.Statement>;
  key: BetterSqlite3.Statement;
  text: BetterSqlite3.Statement;
  save: BetterSqlite3.Statement;
  exists: BetterSqlite3.Statement;
}

@Injectable()
export class SearchIndexRepository {
  readonly sql: SearchIndexSql;
  private sqlite?: SqliteStatements;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.sql = new SearchIndexSql(
      dataSource.options.type === 'better-sqlite3' ? 'sqlite' : 'mysql',
    );
  }

  /** The next `limit` submissions after the indexer's position created before `before`. */
  async pending(before: string, limit: number): Promise<PendingSubmission[]> {
    if (this.sql.dialect === 'sqlite') {
      const statements = this.sqliteStatements();
      // Wait for an open TypeORM transaction (or a commit batch) to end first.
      while (statements.db.inTransaction) await takeTurn();
      const position = statements.state.get(...this.sql.state().params) as
        { lastId: string } | undefined;
      let pending = statements.pending.get(limit);
      if (!pending) {
        pending = statements.db.prepare(this.sql.pending('', '', limit).sql);
        statements.pending.set(limit, pending);
      }
      return pending.all(position?.lastId ?? '', before) as PendingSubmission[];
    }
    const state = this.sql.state();
    const [position] = await this.dataSource.query<Array<{ lastId: string }>>(
      state.sql,
      state.params,
    );
    const pending = this.sql.pending(position?.lastId ?? '', before, limit);
    return this.dataSource.query<PendingSubmission[]>(
      pending.sql,
      pending.params,
    );
  }

  /**
   * Stores the texts of a batch read by `pending` and moves the position to its last id,
   * in one transaction. On SQLite a submission deleted meanwhile is skipped (gone from
   * both tables) and one indexed already is kept as it is.
   */
  async save(
    entries: ReadonlyArray<{ id: string; text: string }>,
    lastId: string,
  ): Promise<void> {
    const save = this.sql.saveState(lastId);
    if (this.sql.dialect === 'sqlite') {
      const statements = this.sqliteStatements();
      // As before the read: an open TypeORM transaction (or a commit batch) ends first, so
      // this batch never becomes a savepoint inside someone else's transaction.
      while (statements.db.inTransaction) await takeTurn();
      statements.db
        .transaction(() => {
          for (const entry of entries) {
            if (!statements.exists.get(entry.id)) continue;
            const result = statements.key.run(entry.id);
            if (result.changes === 0) continue;
            statements.text.run(result.lastInsertRowid, entry.text);
          }
          statements.save.run(...save.params);
        })
        .immediate();
      return;
    }
    await this.dataSource.transaction(async (manager) => {
      await manager.query(
        this.sql.mysqlText(entries.length),
        entries.flatMap((entry) => [entry.id, entry.text]),
      );
      await manager.query(save.sql, save.params);
    });
  }

  /** Empties the index and its position (search:rebuild). */
  async clear(): Promise<void> {
    for (const statement of this.sql.clear()) {
      await this.dataSource.query(statement);
    }
  }

  /** SQLite: the statements on the driver's one connection (prepared on first use). */
  private sqliteStatements(): SqliteStatements {
    const db = (
      this.dataSource.driver as unknown as {
        databaseConnection: BetterSqlite3.Database;
      }
    ).databaseConnection;
    if (this.sqlite?.db !== db) {
      this.sqlite = {
        db,
        state: db.prepare(this.sql.state().sql),
        pending: new Map(),
        key: db.prepare(this.sql.sqliteKey()),
        text: db.prepare(this.sql.sqliteText()),
        save: db.prepare(this.sql.saveState('').sql),
        exists: db.prepare(this.sql.sqliteExists()),
      };
    }
    return this.sqlite;
  }
}
