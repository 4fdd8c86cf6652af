// Every statement on idempotency_record but the submit batch's insert (the commit writers
// add a completed row with each submission, from IDEMPOTENCY_COLUMNS): a key's record, a
// claim, its answer or release, and the sweep of expired records. The SQL is built once,
// at start (idempotency-record-sql.ts).
import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, In, LessThanOrEqual, Repository } from 'typeorm';
import { sqlDatetime } from '../common/database/sql-dates.js';
import { SqliteStatements } from '../common/database/sqlite-statements.js';
import { IdempotencyRecordSql } from './idempotency-record-sql.js';
import { IdempotencyRecord } from './idempotency-record.entity.js';

/** A key's record as the lookup reads it; a null status: still in flight. */
export interface IdempotencyRow {
  fingerprint: string;
  status: number | null;
  response: unknown;
}

/** What the lookup uses of mysql2's (callback) pool. */
interface MysqlPool {
  execute(
    sql: string,
    params: unknown[],
    done: (error: Error | null, rows: unknown) => void,
  ): void;
}

@Injectable()
export class IdempotencyRecordRepository {
  private readonly sqlite: boolean;
  private readonly sql: IdempotencyRecordSql;
  /**
   * The lookup is on submit's path: it runs as a prepared statement on the driver (on
   * SQLite, synchronously; on MySQL/MariaDB, `execute` on TypeORM's pool), not through
   * TypeORM's query runner, whose per-query work would cost more than the statement.
   */
  private readonly statements: SqliteStatements | undefined;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectRepository(IdempotencyRecord)
    private readonly records: Repository<IdempotencyRecord>,
  ) {
    this.sqlite = dataSource.options.type === 'better-sqlite3';
    this.statements = this.sqlite
      ? new SqliteStatements(dataSource)
      : undefined;
    this.sql = new IdempotencyRecordSql(this.sqlite ? 'sqlite' : 'mysql');
  }

  /** The key's record unless it expired by `now`. */
  async find(id: string, now: number): Promise<IdempotencyRow | undefined> {
    const params = [id, this.date(now)];
    return this.statements
      ? this.statements.get<IdempotencyRow>({ sql: this.sql.select, params })
      : this.executeOne(this.sql.select, params);
  }

  /** A claim: the key's row without an answer, until `expiresAt` (throws when taken). */
  async insertClaim(
    id: string,
    fingerprint: string,
    now: number,
    expiresAt: number,
  ): Promise<void> {
    await this.dataSource.query(this.sql.insert, [
      id,
      fingerprint,
      null,
      null,
      this.date(now),
      this.date(expiresAt),
    ]);
  }

  /** The claimed record's answer (sealed), kept until `expiresAt`. */
  async complete(
    id: string,
    status: number,
    response: string,
    expiresAt: number,
  ): Promise<void> {
    await this.dataSource.query(this.sql.complete, [
      status,
      response,
      this.date(expiresAt),
      id,
    ]);
  }

  /** Deletes the claimed record while it has no answer. */
  async release(id: string): Promise<void> {
    await this.dataSource.query(this.sql.release, [id]);
  }

  /** Deletes the key's record if it expired by `now`. */
  async deleteExpired(id: string, now: number): Promise<void> {
    await this.dataSource.query(this.sql.deleteExpired, [id, this.date(now)]);
  }

  // ---- the sweep -------------------------------------------------------------------

  /** Up to `limit` records expired at `at`, by expiry. */
  async expiredIds(at: Date, limit: number): Promise<string[]> {
    const expired = await this.records.find({
      select: { id: true },
      where: { expiresAt: LessThanOrEqual(at) },
      order: { expiresAt: 'ASC' },
      take: limit,
    });
    return expired.map((record) => record.id);
  }

  /** Deletes those of the records still expired at `at`; answers how many went. */
  async deleteExpiredIds(ids: readonly string[], at: Date): Promise<number> {
    const result = await this.records.delete({
      id: In([...ids]),
      expiresAt: LessThanOrEqual(at),
    });
    return result.affected ?? 0;
  }

  /** true on SQLite, whose statements run on this process's event loop. */
  get onEventLoop(): boolean {
    return this.sqlite;
  }

  /** The first row of a prepared statement on the MySQL/MariaDB pool TypeORM opened. */
  private executeOne(
    sql: string,
    params: unknown[],
  ): Promise<IdempotencyRow | undefined> {
    const { pool } = this.dataSource.driver as unknown as {
      pool: MysqlPool | undefined;
    };
    // Not connected (yet): TypeORM's query answers that as everywhere else.
    if (pool === undefined) {
      return this.dataSource
        .query(sql, params)
        .then((rows) => (rows as IdempotencyRow[])[0]);
    }
    return new Promise((resolve, reject) => {
      pool.execute(sql, params, (error, rows) => {
        if (error) reject(error);
        else resolve((rows as IdempotencyRow[])[0]);
      });
    });
  }

  private date(ms: number): Date | string {
    return this.sqlite ? sqlDatetime(new Date(ms)) : new Date(ms);
  }
}
