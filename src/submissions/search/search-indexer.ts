// Keeps the full-text index a few seconds behind the submissions, off the submit path: every
// SEARCH_INDEX_INTERVAL_SECONDS the process that runs the worker indexes what arrived, in batches that
// take turns on the event loop (on SQLite each batch is one short synchronous transaction).
// Rows newer than GRACE_MS are left to the next pass, so a commit batch still in flight is
// not skipped; searches scan those newest rows instead (SubmissionRepository.read).
// While this process is taking a burst of submissions (submission-pressure.ts, as the
// notification worker judges it) a pass waits, for at most MAX_YIELD_MS: indexing costs
// about a tenth of a submission's CPU, which a burst needs more than the index does.
import {
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type BetterSqlite3 from 'better-sqlite3';
import type { DataSource } from 'typeorm';
import { takeTurn } from '../../common/runtime/event-loop-turns.js';
import { AppConfig } from '../../config/app-config.js';
import { sqlDatetime } from '../../common/database/sql-dates.js';
import {
  SubmissionPressure,
  type CommittedSubmissions,
} from '../submission-pressure.js';
import { SearchIndexSql } from './search-index-sql.js';
import { searchText } from './search-text.js';

/** Rows younger than this wait for the next pass (a commit in flight). */
export const GRACE_MS = 2000;
/** Submissions per indexing transaction. */
export const INDEX_BATCH = 200;
/** Longest a scheduled pass waits for a burst of submissions to end. */
export const MAX_YIELD_MS = 10_000;

/** Whether a scheduled pass runs now: not during a burst, unless it has waited MAX_YIELD_MS. */
export function passNow(burst: boolean, sinceLastPassMs: number): boolean {
  return !burst || sinceLastPassMs >= MAX_YIELD_MS;
}

/** SQLite: the indexer's statements, prepared once on the driver's connection. */
interface SqliteStatements {
  db: BetterSqlite3.Database;
  state: BetterSqlite3.Statement;
  pending: BetterSqlite3.Statement;
  key: BetterSqlite3.Statement;
  text: BetterSqlite3.Statement;
  save: BetterSqlite3.Statement;
  exists: BetterSqlite3.Statement;
}

@Injectable()
export class SearchIndexer
  implements OnApplicationBootstrap, OnApplicationShutdown, CommittedSubmissions
{
  private readonly logger = new Logger('SearchIndexer');
  readonly sql: SearchIndexSql;
  private timer?: NodeJS.Timeout;
  private running?: Promise<number>;
  private stopped = false;
  /** Submissions this process's commit queue committed (told by it, as CommitNotifier is). */
  submissions = 0;
  private readonly pressure = new SubmissionPressure(this);
  private lastPassAt = Date.now();
  private sqlite?: SqliteStatements;

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
    this.timer = setInterval(() => this.scheduledPass(), seconds * 1000);
    this.timer.unref();
  }

  submissionsCommitted(count: number): void {
    this.submissions += count;
  }

  /** The timer's pass: waits while a burst of submissions lasts, for at most MAX_YIELD_MS. */
  private scheduledPass(): void {
    if (passNow(this.pressure.sample(), Date.now() - this.lastPassAt)) {
      void this.pass();
    }
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
        this.lastPassAt = Date.now();
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

  /** SQLite: the statements on the driver's one connection (prepared on first use). */
  private sqliteStatements(): SqliteStatements {
    const db = (
      this.dataSource.driver as unknown as {
        databaseConnection: BetterSqlite3.Database;
      }
    ).databaseConnection;
    if (this.sqlite?.db !== db) {
      const state = this.sql.state();
      const pending = this.sql.pending('', '', INDEX_BATCH);
      this.sqlite = {
        db,
        state: db.prepare(state.sql),
        pending: db.prepare(pending.sql),
        key: db.prepare(this.sql.sqliteKey()),
        text: db.prepare(this.sql.sqliteText()),
        save: db.prepare(this.sql.saveState('').sql),
        exists: db.prepare('SELECT 1 FROM "submission" WHERE "id" = ?'),
      };
    }
    return this.sqlite;
  }

  /** One batch; answers how many submissions it read. */
  private async indexBatch(before: string): Promise<number> {
    if (this.sql.dialect === 'sqlite') return this.indexSqliteBatch(before);
    const after = await this.lastId();
    const pending = this.sql.pending(after, before, INDEX_BATCH);
    const rows = await this.dataSource.query<
      Array<{ id: string; data: unknown }>
    >(pending.sql, pending.params);
    if (rows.length === 0) return 0;
    const state = this.sql.saveState(rows[rows.length - 1].id);
    await this.dataSource.transaction(async (manager) => {
      await manager.query(
        this.sql.mysqlText(rows.length),
        rows.flatMap((row) => [row.id, searchText(row.data)]),
      );
      await manager.query(state.sql, state.params);
    });
    return rows.length;
  }

  /**
   * SQLite: one batch read and written straight on the driver's connection with statements
   * prepared once (no query builder: this runs in the process that takes the submissions).
   */
  private async indexSqliteBatch(before: string): Promise<number> {
    const statements = this.sqliteStatements();
    // Wait for an open TypeORM transaction (or a commit batch) to end first.
    while (statements.db.inTransaction) await takeTurn();
    const state = this.sql.state();
    const position = statements.state.get(...state.params) as
      { lastId: string } | undefined;
    const rows = statements.pending.all(
      position?.lastId ?? '',
      before,
    ) as Array<{
      id: string;
      data: string;
    }>;
    if (rows.length === 0) return 0;
    const save = this.sql.saveState(rows[rows.length - 1].id);
    statements.db
      .transaction(() => {
        for (const row of rows) {
          // A submission deleted meanwhile is gone from both: nothing to index.
          if (!statements.exists.get(row.id)) continue;
          const result = statements.key.run(row.id);
          if (result.changes === 0) continue;
          statements.text.run(result.lastInsertRowid, searchText(row.data));
        }
        statements.save.run(...save.params);
      })
      .immediate();
    return rows.length;
  }
}
