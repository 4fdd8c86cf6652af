// Statements run straight on better-sqlite3's connection, prepared once: for the
// repositories whose work is many small statements in a row (the notification worker's
// claims and records), where TypeORM's per-query overhead and an await between statements
// would cost more than the statements themselves.
import type { Database, Statement } from 'better-sqlite3';
import type { DataSource } from 'typeorm';
import type { SqlStatement } from './sql-statement.js';

/** A statement could not start: another transaction is open on the connection. */
export class ConnectionBusyError extends Error {
  constructor() {
    super('Another transaction is open on the SQLite connection');
    this.name = 'ConnectionBusyError';
  }
}

/** Longest a write waits for another transaction on the connection to end. */
const FREE_WAIT_MS = 5_000;

/** Most distinct statements kept prepared (their SQL text varies with list lengths). */
const MAX_PREPARED = 256;

export class SqliteStatements {
  private readonly prepared = new Map<string, Statement>();

  constructor(private readonly dataSource: DataSource) {}

  /** The connection TypeORM opened (better-sqlite3 has one). */
  get db(): Database {
    return (
      this.dataSource.driver as unknown as { databaseConnection: Database }
    ).databaseConnection;
  }

  private wal: boolean | undefined;

  private isWal(db: Database): boolean {
    this.wal ??= db.pragma('journal_mode', { simple: true }) === 'wal';
    return this.wal;
  }

  private statement(sql: string): Statement {
    let statement = this.prepared.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare(sql);
      if (this.prepared.size >= MAX_PREPARED) {
        this.prepared.delete(this.prepared.keys().next().value!);
      }
      this.prepared.set(sql, statement);
    }
    return statement;
  }

  all<T>({ sql, params }: SqlStatement): T[] {
    return this.statement(sql).all(...params) as T[];
  }

  get<T>({ sql, params }: SqlStatement): T | undefined {
    return this.statement(sql).get(...params) as T | undefined;
  }

  /** Runs a write; answers the number of rows it changed. */
  run({ sql, params }: SqlStatement): number {
    return this.statement(sql).run(...params).changes;
  }

  /**
   * Runs `work` as one immediate transaction, synchronously. `relaxed`: the commit does
   * not wait for the disk (`synchronous = NORMAL` for this transaction only) — for writes
   * that a power loss may undo without harm, because what they were made from is still
   * committed and they are simply made again (the worker's claims, expansions and
   * records). A later durable commit flushes them with it. Throws ConnectionBusyError
   * while another transaction (TypeORM's, across awaits) is open: it would swallow this
   * one as a savepoint.
   */
  transaction<T>(work: () => T, relaxed = false): T {
    const db = this.db;
    if (db.inTransaction) throw new ConnectionBusyError();
    // Only a write-ahead log keeps a relaxed commit safe: a power loss may lose the last
    // commits, never corrupt the file. In rollback-journal mode every commit waits.
    if (!relaxed || !this.isWal(db)) return db.transaction(work).immediate();
    const level = Number(db.pragma('synchronous', { simple: true }));
    db.pragma('synchronous = NORMAL');
    try {
      return db.transaction(work).immediate();
    } finally {
      db.pragma(`synchronous = ${level}`);
    }
  }

  /**
   * `transaction()`, once no other transaction is open on the connection: one on TypeORM's
   * side ends within a few turns of the event loop (ConnectionBusyError after FREE_WAIT_MS).
   */
  async whenFree<T>(work: () => T, relaxed = false): Promise<T> {
    const deadline = Date.now() + FREE_WAIT_MS;
    while (this.db.inTransaction) {
      if (Date.now() > deadline) throw new ConnectionBusyError();
      await new Promise((resolve) => setImmediate(resolve));
    }
    return this.transaction(work, relaxed);
  }
}
