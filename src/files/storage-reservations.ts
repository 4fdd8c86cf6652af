// MAX_STORAGE_PER_ACCOUNT under concurrency: an upload reserves the bytes it is about to
// write (one conditional UPDATE each, see StorageReservationSql) and gives back what it did
// not use; its submission's files stop being reserved once committed (they count as
// stored files then) or dropped. Uploads racing each other never pass the cap.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { SqlStatement } from '../common/database/sql-statement.js';
import type { Readable } from 'node:stream';
import { FileTooLargeError } from './storage/file-storage.js';
import { StorageReservationSql } from './storage-reservation-sql.js';

/** What an upload may take of its account's storage. */
export interface StorageBudget {
  /** Reserves `bytes`; false when they would pass the cap (nothing reserved then). */
  reserve(bytes: number): Promise<boolean>;
  /** Gives back `bytes` reserved before. */
  release(bytes: number): Promise<void>;
}

/** The account's storage cannot take the file's next bytes (MAX_STORAGE_PER_ACCOUNT). */
export class StorageFullError extends Error {
  constructor() {
    super('the account storage is full');
    this.name = 'StorageFullError';
  }
}

/** Bytes reserved at a time while a file streams: one statement per MiB, not per chunk. */
const RESERVATION_STEP = 1024 * 1024;

/**
 * `source` passed through once its bytes are reserved of `budget`: a step at a time (at
 * most what the file may still hold), else exactly what arrived, else StorageFullError.
 * `reservation.bytes` says what is reserved, for the caller to give back what was unused.
 */
export async function* reservedBytes(
  source: Readable,
  budget: StorageBudget,
  reservation: { bytes: number },
  maxBytes: number,
): AsyncGenerator<Buffer> {
  let seen = 0;
  for await (const chunk of source as AsyncIterable<Buffer>) {
    seen += chunk.length;
    // Too large for its field whatever the account holds: the storage's own refusal.
    if (seen > maxBytes) throw new FileTooLargeError(maxBytes);
    if (seen > reservation.bytes) {
      const needed = seen - reservation.bytes;
      const step = Math.max(
        needed,
        Math.min(RESERVATION_STEP, maxBytes - reservation.bytes),
      );
      if (await budget.reserve(step)) {
        reservation.bytes += step;
      } else if (step > needed && (await budget.reserve(needed))) {
        reservation.bytes += needed;
      } else {
        throw new StorageFullError();
      }
    }
    yield chunk;
  }
}

@Injectable()
export class StorageReservations {
  readonly sql: StorageReservationSql;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.sql = new StorageReservationSql(
      dataSource.options.type === 'better-sqlite3' ? 'sqlite' : 'mysql',
    );
  }

  /** The budget of one upload to the account, within `cap` bytes in all. */
  async budgetOf(accountId: string, cap: number): Promise<StorageBudget> {
    await this.execute(this.sql.ensure(accountId));
    return {
      reserve: async (bytes) =>
        (await this.execute(
          this.sql.reserve(accountId, bytes, cap, new Date()),
        )) === 1,
      release: async (bytes) => {
        if (bytes > 0) {
          await this.execute(this.sql.release(accountId, bytes, new Date()));
        }
      },
    };
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
