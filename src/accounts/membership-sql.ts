// The statements that keep an account's last owner, for both dialects, built without a
// connection so that membership-sql.spec.ts can snapshot them. Each change is one
// statement whose WHERE counts the owners: two owners demoting or removing each other at
// once cannot both pass, and no read-then-write leaves an account without an owner.
import type {
  SqlDialect,
  SqlStatement,
} from '../common/database/sql-statement.js';
import { sqlDatetime } from '../common/database/sql-dates.js';
import { quoteIdentifier } from '../common/database/sql-identifier.js';

export class MembershipSql {
  constructor(readonly dialect: SqlDialect) {}

  private e(name: string): string {
    return quoteIdentifier(this.dialect, name);
  }

  /**
   * "The membership is no owner's, or another owner remains". The count reads a derived
   * table: MySQL refuses a subquery on the table a statement changes unless it is
   * materialized first.
   */
  private anotherOwnerRemains(): string {
    const e = (name: string) => this.e(name);
    return `(${e('role')} <> 'owner' OR (SELECT COUNT(*) FROM (SELECT ${e('userId')} FROM ${e('membership')} WHERE ${e('accountId')} = ? AND ${e('role')} = 'owner') ${e('owners')}) > 1)`;
  }

  /** Gives the member `role`, unless that takes the account's last owner away. */
  changeRole(
    accountId: string,
    userId: string,
    role: string,
    now: Date,
  ): SqlStatement {
    const e = (name: string) => this.e(name);
    return {
      sql: `UPDATE ${e('membership')} SET ${e('role')} = ?, ${e('updatedAt')} = ? WHERE ${e('accountId')} = ? AND ${e('userId')} = ? AND (? = 'owner' OR ${this.anotherOwnerRemains()})`,
      params: [role, sqlDatetime(now), accountId, userId, role, accountId],
    };
  }

  /** Deletes the membership, unless it is the account's last owner's. */
  remove(accountId: string, userId: string): SqlStatement {
    const e = (name: string) => this.e(name);
    return {
      sql: `DELETE FROM ${e('membership')} WHERE ${e('accountId')} = ? AND ${e('userId')} = ? AND ${this.anotherOwnerRemains()}`,
      params: [accountId, userId, accountId],
    };
  }
}
