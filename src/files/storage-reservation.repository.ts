// Every statement on storage_reservation, the bytes uploads in flight hold of their
// account's storage (their dialect SQL in storage-reservation-sql.ts): the account's row
// made when missing, and bytes reserved or given back by one conditional UPDATE each.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { SqlStatement } from '../common/database/sql-statement.js';
import { StorageReservationSql } from './storage-reservation-sql.js';

@Injectable()
export class StorageReservationRepository {
  private readonly sql: StorageReservationSql;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.sql = new StorageReservationSql(
      dataSource.options.type === 'better-sqlite3' ? 'sqlite' : 'mysql',
    );
  }

  /** Makes the account's row unless it exists. */
  async ensure(accountId: string): Promise<void> {
    await this.execute(this.sql.ensure(accountId));
  }

  /** Reserves `bytes` while the account stays within `cap`; false otherwise. */
  async reserve(
    accountId: string,
    bytes: number,
    cap: number,
  ): Promise<boolean> {
    return (
      (await this.execute(
        this.sql.reserve(accountId, bytes, cap, new Date()),
      )) === 1
    );
  }

  /** Gives back `bytes` reserved before. */
  async release(accountId: string, bytes: number): Promise<void> {
    await this.execute(this.sql.release(accountId, bytes, new Date()));
  }

  /** Runs a statement; answers the rows it changed. */
  private async execute({ sql, params }: SqlStatement): Promise<number> {
    const runner = this.dataSource.createQueryRunner();
    try {
      const result = await runner.query(sql, params, true);
      return (result as { affected?: number }).affected ?? 0;
    } finally {
      await runner.release();
    }
  }
}
