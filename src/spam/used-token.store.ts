// "Accepted at most once", across instances: an accepted CAPTCHA answer is a row of
// used_captcha_token, and inserting that row is the acceptance — the primary key refuses
// a second insert of the same answer whichever instance tries, so two requests racing
// with one answer cannot both pass (a get followed by a set could). Claims made while a
// batch is being written are written together as the next batch: one statement on
// MySQL/MariaDB (per row only when some answer was already used), one transaction of
// prepared statements on SQLite.
import { Injectable } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import type { Pool } from 'mysql2';
import { DataSource } from 'typeorm';
import type { MysqlDriver } from 'typeorm/driver/mysql/MysqlDriver.js';
import { DB_DEADLINE_MS } from '../common/database/database-deadline.js';
import { DatabaseStateService } from '../common/database/database-state.service.js';
import { isDatabaseUnavailable } from '../common/database/driver-errors.js';
import {
  ConnectionBusyError,
  SqliteStatements,
} from '../common/database/sqlite-statements.js';
import { TemporarilyUnavailableException } from '../common/errors/errors.js';
import { sqlDatetime } from '../common/database/sql-dates.js';

/** The row id of an answer: SHA-256 of the provider and the answer, hex. */
export function tokenId(provider: string, answer: string): string {
  return createHash('sha256').update(`${provider}:${answer}`).digest('hex');
}

interface Claim {
  id: string;
  expiresAt: Date;
  resolve: (accepted: boolean) => void;
  reject: (error: unknown) => void;
}

/** Writes one batch; answers, per claim, whether its row was new. */
type BatchWriter = (claims: readonly Claim[]) => Promise<boolean[]>;

const MAX_BATCH = 500;

function unavailable(): TemporarilyUnavailableException {
  return new TemporarilyUnavailableException(
    'Database unavailable, please retry shortly',
  );
}

@Injectable()
export class UsedTokenStore {
  private waiting: Claim[] = [];
  private writing = false;
  private scheduled = false;
  private writer: BatchWriter | undefined;

  constructor(
    private readonly dataSource: DataSource,
    private readonly database: DatabaseStateService,
  ) {}

  /**
   * Records the answer as used: true when this call was the first to use it, false
   * when it was used before (here or on another instance). Rejects with 503 when the
   * database cannot say within its deadline.
   */
  claim(id: string, expiresAt: Date): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      this.waiting.push({ id, expiresAt, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.writing) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.run();
    });
  }

  private async run(): Promise<void> {
    if (this.writing || this.waiting.length === 0) return;
    this.writing = true;
    const batch = this.waiting.splice(0, MAX_BATCH);
    let timer: NodeJS.Timeout | undefined;
    try {
      const writer = this.currentWriter();
      if (writer === undefined) throw unavailable();
      const accepted = await Promise.race([
        this.firstOfEach(batch, writer),
        new Promise<never>((_resolve, reject) => {
          timer = setTimeout(() => reject(unavailable()), DB_DEADLINE_MS);
        }),
      ]);
      batch.forEach((claim, i) => claim.resolve(accepted[i]));
    } catch (error) {
      const answer =
        error instanceof TemporarilyUnavailableException ||
        error instanceof ConnectionBusyError ||
        isDatabaseUnavailable(error)
          ? unavailable()
          : error;
      for (const claim of batch) claim.reject(answer);
    } finally {
      clearTimeout(timer);
      this.writing = false;
      if (this.waiting.length > 0) this.schedule();
    }
  }

  /** The same answer twice in one batch: the first claim wins, the others lose. */
  private async firstOfEach(
    batch: readonly Claim[],
    writer: BatchWriter,
  ): Promise<boolean[]> {
    const seen = new Set<string>();
    const unique: Claim[] = [];
    for (const claim of batch) {
      if (seen.has(claim.id)) continue;
      seen.add(claim.id);
      unique.push(claim);
    }
    const written = await writer(unique);
    const won = new Map(unique.map((claim, i) => [claim, written[i]]));
    return batch.map((claim) => won.get(claim) ?? false);
  }

  private currentWriter(): BatchWriter | undefined {
    if (!this.database.isConnected) {
      this.writer = undefined;
      return undefined;
    }
    if (this.writer !== undefined) return this.writer;
    const driver = this.dataSource.driver;
    this.writer =
      driver.options.type === 'better-sqlite3'
        ? sqliteWriter(new SqliteStatements(this.dataSource))
        : mysqlWriter((driver as MysqlDriver).pool as Pool);
    return this.writer;
  }
}

/**
 * On SQLite a claim is committed relaxed (not waiting for the disk): the submission that
 * used the answer is committed durably after it, and that commit flushes the claim with
 * it, so an acknowledged submission's claim is never lost. A power loss can only undo
 * the claim of an answer whose submission was never acknowledged. Half the disk flushes
 * of a form with a CAPTCHA.
 */
function sqliteWriter(statements: SqliteStatements): BatchWriter {
  const INSERT =
    'INSERT OR IGNORE INTO "used_captcha_token" ("id", "expiresAt", "claim") VALUES (?, ?, ?)';
  return (claims) =>
    statements.whenFree(() => {
      const batch = newBatchId();
      return claims.map(
        (claim) =>
          statements.run({
            sql: INSERT,
            params: [claim.id, sqlDatetime(claim.expiresAt), batch],
          }) === 1,
      );
    }, true);
}

function newBatchId(): string {
  return randomBytes(16).toString('base64url').slice(0, 22);
}

function mysqlWriter(pool: Pool): BatchWriter {
  const run = <T>(sql: string, values: unknown[]) =>
    new Promise<T>((resolve, reject) => {
      pool.query({ sql, values, timeout: DB_DEADLINE_MS }, (error, result) =>
        error ? reject(error) : resolve(result as T),
      );
    });
  const INSERT =
    'INSERT IGNORE INTO `used_captcha_token` (`id`, `expiresAt`, `claim`) VALUES ?';
  const WON =
    'SELECT `id` FROM `used_captcha_token` WHERE `claim` = ? AND `id` IN (?)';
  return async (claims) => {
    const batch = newBatchId();
    const rows = claims.map((claim) => [claim.id, claim.expiresAt, batch]);
    const inserted = await run<{ affectedRows: number }>(INSERT, [rows]);
    // Nearly always every answer is new, and the one statement says so.
    if (inserted.affectedRows === claims.length) {
      return claims.map(() => true);
    }
    // Some answer was used before: the rows this batch wrote carry its id.
    const won = await run<Array<{ id: string }>>(WON, [
      batch,
      claims.map((claim) => claim.id),
    ]);
    const ids = new Set(won.map((row) => row.id));
    return claims.map((claim) => ids.has(claim.id));
  };
}
