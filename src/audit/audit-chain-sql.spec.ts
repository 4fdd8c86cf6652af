import { SqlFile } from '../../test/support/sql-file.js';
import type { SqlDialect } from '../common/database/sql-statement.js';
import { AuditChainSql } from './audit-chain-sql.js';

// The statements that keep an account's chain linear under concurrency, on both dialects,
// kept under review: the head is read with a row lock (FOR UPDATE) on MySQL/MariaDB.
describe.each<SqlDialect>(['mysql', 'sqlite'])(
  'audit chain SQL on %s',
  (dialect) => {
    const sql = new AuditChainSql(dialect);
    const file = new SqlFile('AuditChainSql');

    file.section(
      'creates, locks, advances and re-anchors a chain with one statement each',
      () => {
        file.add('ensureChain', sql.ensureChain('01ACCOUNT'));
        file.add('lockHead', sql.lockHead('01ACCOUNT'));
        file.add(
          'advanceHead',
          sql.advanceHead('01ACCOUNT', 7, 'ab'.repeat(32)),
        );
        file.add('moveAnchor', sql.moveAnchor('01ACCOUNT', 3, 'cd'.repeat(32)));
      },
    );

    it('builds every statement as __sql__/audit_chain.<dialect>.sql holds it', async () => {
      await expect(file.text()).toMatchFileSnapshot(
        `./__sql__/audit_chain.${dialect}.sql`,
      );
    });

    it('locks the head only where the database has row locks', () => {
      expect(sql.lockHead('a').sql.endsWith('FOR UPDATE')).toBe(
        dialect === 'mysql',
      );
    });
  },
);
