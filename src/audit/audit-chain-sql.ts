// The SQL of the audit chain's head (audit_chain), for both dialects, built without a
// connection so that audit-chain-sql.spec.ts can snapshot it. Recording an event reads the
// head with a row lock (MySQL/MariaDB: FOR UPDATE, held to the end of the change's
// transaction; SQLite has one writer, and AuditLogService runs its transactions one at a time), so
// two changes of one account at once chain one after the other and never fork.
import type {
  SqlDialect,
  SqlStatement,
} from '../common/database/sql-statement.js';
import { quoteIdentifier } from '../common/database/sql-identifier.js';
import { GENESIS_HASH } from './audit-hash.js';

export class AuditChainSql {
  constructor(readonly dialect: SqlDialect) {}

  private e(name: string): string {
    return quoteIdentifier(this.dialect, name);
  }

  /** Creates the account's chain unless it exists (empty, anchored at the genesis hash). */
  ensureChain(accountId: string): SqlStatement {
    const e = (name: string) => this.e(name);
    const insert =
      this.dialect === 'sqlite'
        ? 'INSERT OR IGNORE INTO'
        : 'INSERT IGNORE INTO';
    return {
      sql: `${insert} ${e('audit_chain')} (${e('accountId')}, ${e('headSeq')}, ${e('headHash')}, ${e('anchorSeq')}, ${e('anchorHash')}) VALUES (?, 0, ?, 0, ?)`,
      params: [accountId, GENESIS_HASH, GENESIS_HASH],
    };
  }

  /** The head of the account's chain, locked until the transaction ends. */
  lockHead(accountId: string): SqlStatement {
    const e = (name: string) => this.e(name);
    const lock = this.dialect === 'sqlite' ? '' : ' FOR UPDATE';
    return {
      sql: `SELECT ${e('headSeq')}, ${e('headHash')} FROM ${e('audit_chain')} WHERE ${e('accountId')} = ?${lock}`,
      params: [accountId],
    };
  }

  /** Moves the head to the event just written. */
  advanceHead(accountId: string, seq: number, hash: string): SqlStatement {
    const e = (name: string) => this.e(name);
    return {
      sql: `UPDATE ${e('audit_chain')} SET ${e('headSeq')} = ?, ${e('headHash')} = ? WHERE ${e('accountId')} = ?`,
      params: [seq, hash, accountId],
    };
  }

  /** Where verification starts, once events up to `seq` are deleted. */
  moveAnchor(accountId: string, seq: number, hash: string): SqlStatement {
    const e = (name: string) => this.e(name);
    return {
      sql: `UPDATE ${e('audit_chain')} SET ${e('anchorSeq')} = ?, ${e('anchorHash')} = ? WHERE ${e('accountId')} = ? AND ${e('anchorSeq')} < ?`,
      params: [seq, hash, accountId, seq],
    };
  }
}
