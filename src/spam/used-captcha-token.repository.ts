// Every statement on used_captcha_token, the CAPTCHA answers already accepted (their
// dialect SQL in used-captcha-token-sql.ts): the batches of claims UsedTokenStore writes, and
// the spam sweep's deletion of expired answers.
import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import type { Pool } from 'mysql2';
import { DataSource, In, LessThan, Repository } from 'typeorm';
import type { MysqlDriver } from 'typeorm/driver/mysql/MysqlDriver.js';
import { DB_DEADLINE_MS } from '../common/database/database-deadline.js';
import { SqliteStatements } from '../common/database/sqlite-statements.js';
import type { SqlStatement } from '../common/database/sql-statement.js';
import { UsedCaptchaToken } from './used-captcha-token.entity.js';
import {
  UsedCaptchaTokenSql,
  type TokenClaim,
} from './used-captcha-token-sql.js';

/** Writes one batch of claims; answers, per claim, whether its row was new. */
export type ClaimWriter = (claims: readonly TokenClaim[]) => Promise<boolean[]>;

function newBatchId(): string {
  return randomBytes(16).toString('base64url').slice(0, 22);
}

@Injectable()
export class UsedCaptchaTokenRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectRepository(UsedCaptchaToken)
    private readonly tokens: Repository<UsedCaptchaToken>,
  ) {}

  /** A writer of claim batches on the connection open now (made again after a reconnect). */
  claimWriter(): ClaimWriter {
    const driver = this.dataSource.driver;
    return driver.options.type === 'better-sqlite3'
      ? sqliteWriter(
          new SqliteStatements(this.dataSource),
          new UsedCaptchaTokenSql('sqlite'),
        )
      : mysqlWriter(
          (driver as MysqlDriver).pool as Pool,
          new UsedCaptchaTokenSql('mysql'),
        );
  }

  /** Up to `limit` answers that expired before `before`, oldest first. */
  async expiredIds(before: Date, limit: number): Promise<string[]> {
    const expired = await this.tokens.find({
      select: { id: true },
      where: { expiresAt: LessThan(before) },
      order: { expiresAt: 'ASC' },
      take: limit,
    });
    return expired.map((token) => token.id);
  }

  /** Deletes the answers; answers how many rows went. */
  async delete(ids: readonly string[]): Promise<number> {
    const result = await this.tokens.delete({ id: In([...ids]) });
    return result.affected ?? 0;
  }
}

/**
 * On SQLite a claim is committed relaxed (not waiting for the disk): the submission that
 * used the answer is committed durably after it, and that commit flushes the claim with
 * it, so an acknowledged submission's claim is never lost. A power loss can only undo
 * the claim of an answer whose submission was never acknowledged. Half the disk flushes
 * of a form with a CAPTCHA.
 */
function sqliteWriter(
  statements: SqliteStatements,
  sql: UsedCaptchaTokenSql,
): ClaimWriter {
  return (claims) =>
    statements.whenFree(() => {
      const batch = newBatchId();
      return claims.map(
        (claim) => statements.run(sql.claimOne(claim, batch)) === 1,
      );
    }, true);
}

/** One statement per batch on the pool, with the database's deadline. */
function mysqlWriter(pool: Pool, sql: UsedCaptchaTokenSql): ClaimWriter {
  const run = <T>({ sql: text, params }: SqlStatement) =>
    new Promise<T>((resolve, reject) => {
      pool.query(
        { sql: text, values: params, timeout: DB_DEADLINE_MS },
        (error, result) => (error ? reject(error) : resolve(result as T)),
      );
    });
  return async (claims) => {
    const batch = newBatchId();
    const inserted = await run<{ affectedRows: number }>(
      sql.claimAll(claims, batch),
    );
    // Nearly always every answer is new, and the one statement says so.
    if (inserted.affectedRows === claims.length) {
      return claims.map(() => true);
    }
    // Some answer was used before: the rows this batch wrote carry its id.
    const won = await run<Array<{ id: string }>>(
      sql.won(
        batch,
        claims.map((claim) => claim.id),
      ),
    );
    const ids = new Set(won.map((row) => row.id));
    return claims.map((claim) => ids.has(claim.id));
  };
}
