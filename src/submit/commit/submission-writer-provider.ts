import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { BetterSqlite3Driver } from 'typeorm/driver/better-sqlite3/BetterSqlite3Driver.js';
import type { MysqlDriver } from 'typeorm/driver/mysql/MysqlDriver.js';
import { DB_DEADLINE_MS } from '../../common/database/database-deadline.js';
import { DatabaseStateService } from '../../common/database/database-state.service.js';
import { DeliveryRepository } from '../../notifications/deliveries/delivery.repository.js';
import {
  MYSQL_PARALLEL_BATCHES,
  MysqlSubmissionWriter,
} from './mysql-submission-writer.js';
import { SqliteSubmissionWriter } from './sqlite-submission-writer.js';
import type { SubmissionWriter } from './submission-writer.js';

interface MysqlDriverInternals {
  mysql: { createPool(options: object): MysqlDriver['pool'] };
  createConnectionOptions(options: unknown, credentials: unknown): unknown;
}

/** The writer for the configured database, made once the database is connected. */
@Injectable()
export class SubmissionWriterProvider {
  private writer: SubmissionWriter | undefined;

  constructor(
    private readonly dataSource: DataSource,
    private readonly database: DatabaseStateService,
    private readonly outbox: DeliveryRepository,
  ) {}

  /** undefined while the database is not connected. */
  current(): SubmissionWriter | undefined {
    if (!this.database.isConnected) return undefined;
    if (this.writer !== undefined) return this.writer;
    const driver = this.dataSource.driver;
    this.writer =
      driver.options.type === 'better-sqlite3'
        ? new SqliteSubmissionWriter(
            (driver as BetterSqlite3Driver).databaseConnection,
            this.outbox.eventInsert(),
          )
        : new MysqlSubmissionWriter(
            this.mysqlPool(driver as MysqlDriver),
            this.outbox.eventInsert(),
            DB_DEADLINE_MS,
          );
    return this.writer;
  }

  /** Lets go of the writer's connections (after the queue has drained). */
  async close(): Promise<void> {
    const writer = this.writer;
    this.writer = undefined;
    await writer?.close?.();
  }

  /**
   * A pool of MYSQL_PARALLEL_BATCHES connections with TypeORM's own connection options
   * (the same server, credentials, charset, time zone and timeouts), plus
   * `multipleStatements`, which the writer needs and nothing else should have.
   */
  private mysqlPool(driver: MysqlDriver): MysqlDriver['pool'] {
    const internals = driver as unknown as MysqlDriverInternals;
    const options = internals.createConnectionOptions(
      driver.options,
      driver.options,
    ) as Record<string, unknown>;
    return internals.mysql.createPool({
      ...options,
      multipleStatements: true,
      connectionLimit: MYSQL_PARALLEL_BATCHES,
    });
  }
}
