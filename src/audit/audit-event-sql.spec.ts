import type { SqlDialect } from '../common/database/sql-statement.js';
import { AuditEventSql } from './audit-event-sql.js';

// The statements that keep an account's chain linear under concurrency, on both dialects,
// kept under review: the head is read with a row lock (FOR UPDATE) on MySQL/MariaDB.
describe.each<SqlDialect>(['mysql', 'sqlite'])(
  'audit chain SQL on %s',
  (dialect) => {
    const sql = new AuditEventSql(dialect);

    it('creates, locks, advances and re-anchors a chain with one statement each', async () => {
      const text = [
        sql.ensureChain('01ACCOUNT'),
        sql.lockHead('01ACCOUNT'),
        sql.advanceHead('01ACCOUNT', 7, 'ab'.repeat(32)),
        sql.moveAnchor('01ACCOUNT', 3, 'cd'.repeat(32)),
      ]
        .map(
          ({ sql: statement, params }) =>
            `${statement};\n-- ${JSON.stringify(params)}`,
        )
        .join('\n\n');
      await expect(`${text}\n`).toMatchFileSnapshot(
        `__snapshots__/audit-chain.${dialect}.sql`,
      );
    });

    it('locks the head only where the database has row locks', () => {
      expect(sql.lockHead('a').sql.endsWith('FOR UPDATE')).toBe(
        dialect === 'mysql',
      );
    });
  },
);
