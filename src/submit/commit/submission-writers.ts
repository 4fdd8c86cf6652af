import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { BetterSqlite3Driver } from 'typeorm/driver/better-sqlite3/BetterSqlite3Driver.js';
import type { MysqlDriver } from 'typeorm/driver/mysql/MysqlDriver.js';
import { DB_DEADLINE_MS } from '../../common/database/database-deadline.js';
import { DatabaseStateService } from '../../common/database/database-state.service.js';
import { MysqlSubmissionWriter } from './mysql-submission-writer.js';
import { SqliteSubmissionWriter } from './sqlite-submission-writer.js';
import type { SubmissionWriter } from './submission-writer.js';

/** The writer for the configured database, made once the database is connected. */
@Injectable()
export class SubmissionWriters {
  private writer: SubmissionWriter | undefined;

  constructor(
    private readonly dataSource: DataSource,
    private readonly database: DatabaseStateService,
  ) {}

  /** undefined while the database is not connected. */
  current(): SubmissionWriter | undefined {
    if (!this.database.isConnected) {
      this.writer = undefined;
      return undefined;
    }
    if (this.writer !== undefined) return this.writer;
    const driver = this.dataSource.driver;
    this.writer =
      driver.options.type === 'better-sqlite3'
        ? new SqliteSubmissionWriter(
            (driver as BetterSqlite3Driver).databaseConnection,
          )
        : new MysqlSubmissionWriter(
            (driver as MysqlDriver).pool,
            DB_DEADLINE_MS,
          );
    return this.writer;
  }
}
