// Keeps the full-text index a few seconds behind the submissions, off the submit path: every
// SEARCH_INDEX_INTERVAL_SECONDS the process that runs the worker indexes what arrived, in batches that
// take turns on the event loop (on SQLite each batch is one short synchronous transaction).
// Rows newer than GRACE_MS are left to the next pass, so a commit batch still in flight is
// not skipped; searches scan those newest rows instead (SubmissionRepository.read).
import {
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type BetterSqlite3 from 'better-sqlite3';
import type { DataSource } from 'typeorm';
import { takeTurn } from '../../common/event-loop-turns.js';
import { AppConfig } from '../../config/app-config.js';
import { sqlDatetime } from '../../common/database/sql-dates.js';
import { SearchIndexSql } from './search-index-sql.js';
import { searchText } from './search-text.js';

/** Rows younger than this wait for the next pass (a commit in flight). */
export const GRACE_MS = 2000;
/** Submissions per indexing transaction. */
export const INDEX_BATCH = 200;

@Injectable()
export class SearchIndexer
  implements OnApplicationBootstrap, OnApplicationShutdown
{
  private readonly logger = new Logger('SearchIndexer');
  readonly sql: SearchIndexSql;
  private timer?: NodeJS.Timeout;
  private running?: Promise<number>;
  private stopped = false;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: AppConfig,
  ) {
    this.sql = new SearchIndexSql(
      dataSource.options.type === 'better-sqlite3' ? 'sqlite' : 'mysql',
    );
  }

  onApplicationBootstrap(): void {
    const seconds = this.config.searchIndexIntervalSeconds;
    if (!this.config.workerEnabled || seconds === 0) return;
    this.timer = setInterval(() => void this.pass(), seconds * 1000);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running?.catch(() => 0);
  }

  /** One pass (at most one at a time): indexes what waits; failures wait for the next. */
  pass(): Promise<number> {
    this.running ??= this.indexPending()
      .catch((error: unknown) => {
        this.logger.warn(`Search indexing failed: ${(error as Error).message}`);
        return 0;
      })
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  /** Indexes every submission older than GRACE_MS not yet indexed; answers how many. */
  async indexPending(now = Date.now()): Promise<number> {
    const before = sqlDatetime(new Date(now - GRACE_MS));
    let total = 0;
    for (;;) {
      if (this.stopped) return total;
      await takeTurn();
      const done = await this.indexBatch(before);
      total += done;
      if (done < INDEX_BATCH) return total;
    }
  }

  /** Empties the index and indexes every submission again (search:rebuild). */
  async rebuild(): Promise<number> {
    for (const statement of this.sql.clear()) {
      await this.dataSource.query(statement);
    }
    return this.indexPending(Date.now() + GRACE_MS);
  }

  private async lastId(): Promise<string> {
    const { sql, params } = this.sql.state();
    const [row] = await this.dataSource.query<Array<{ lastId: string }>>(
      sql,
      params,
    );
    return row?.lastId ?? '';
  }

  /** One batch; answers how many submissions it read. */
  private async indexBatch(before: string): Promise<number> {
    const after = await this.lastId();
    const pending = this.sql.pending(after, before, INDEX_BATCH);
    const rows = await this.dataSource.query<
      Array<{ id: string; data: unknown }>
    >(pending.sql, pending.params);
    if (rows.length === 0) return 0;
    const last = rows[rows.length - 1].id;
    const state = this.sql.saveState(last);
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
      const exists = db.prepare('SELECT 1 FROM "submission" WHERE "id" = ?');
      db.transaction(() => {
        for (const row of rows) {
          // A submission deleted meanwhile is gone from both: nothing to index.
          if (!exists.get(row.id)) continue;
          const result = key.run(row.id);
          if (result.changes === 0) continue;
          text.run(result.lastInsertRowid, searchText(row.data));
        }
        save.run(...state.params);
      }).immediate();
      return rows.length;
    }
    await this.dataSource.transaction(async (manager) => {
      await manager.query(
        this.sql.mysqlText(rows.length),
        rows.flatMap((row) => [row.id, searchText(row.data)]),
      );
      await manager.query(state.sql, state.params);
    });
    return rows.length;
  }
}
