// The statements on used_captcha_token that differ between the dialects: a batch of
// claimed answers inserted unless already used, and which of them a batch won.
import { sqlDatetime } from '../common/database/sql-dates.js';
import { quoteIdentifier } from '../common/database/sql-identifier.js';
import type {
  SqlDialect,
  SqlStatement,
} from '../common/database/sql-statement.js';

/** An answer claimed as used, until it would have expired anyway. */
export interface TokenClaim {
  id: string;
  expiresAt: Date;
}

export class UsedCaptchaTokenSql {
  constructor(readonly dialect: SqlDialect) {}

  private e(name: string): string {
    return quoteIdentifier(this.dialect, name);
  }

  private insertInto(): string {
    const e = (name: string) => this.e(name);
    return `INTO ${e('used_captcha_token')} (${e('id')}, ${e('expiresAt')}, ${e('claim')})`;
  }

  /** SQLite: one claim's row unless the answer's row exists (prepared, run per claim). */
  claimOne(claim: TokenClaim, batch: string): SqlStatement {
    return {
      sql: `INSERT OR IGNORE ${this.insertInto()} VALUES (?, ?, ?)`,
      params: [claim.id, sqlDatetime(claim.expiresAt), batch],
    };
  }

  /** MySQL/MariaDB: every claim's row in one statement, each skipped when its answer was used. */
  claimAll(claims: readonly TokenClaim[], batch: string): SqlStatement {
    return {
      sql: `INSERT IGNORE ${this.insertInto()} VALUES ?`,
      params: [claims.map((claim) => [claim.id, claim.expiresAt, batch])],
    };
  }

  /** The answers among `ids` whose row the batch wrote (it won them). */
  won(batch: string, ids: readonly string[]): SqlStatement {
    const e = (name: string) => this.e(name);
    return {
      sql: `SELECT ${e('id')} FROM ${e('used_captcha_token')} WHERE ${e('claim')} = ? AND ${e('id')} IN (?)`,
      params: [batch, [...ids]],
    };
  }
}
