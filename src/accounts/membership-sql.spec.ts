import { SqlFile } from '../../test/support/sql-file.js';
import type { SqlDialect } from '../common/database/sql-statement.js';
import { MembershipSql } from './membership-sql.js';

// The statements that keep an account's last owner, under review on both dialects: each
// change must stay one statement that counts the owners in its WHERE.
const NOW = new Date('2026-12-01T12:00:00.123Z');

describe.each<SqlDialect>(['mysql', 'sqlite'])(
  'membership SQL on %s',
  (dialect) => {
    const sql = new MembershipSql(dialect);
    const file = new SqlFile('MembershipSql');

    file.section(
      'changes a role and removes a member in one conditional statement each',
      () => {
        file.add('changeRole', sql.changeRole('acc', 'usr', 'viewer', NOW));
        file.add('remove', sql.remove('acc', 'usr'));
      },
    );

    it('builds every statement as __sql__/membership.<dialect>.sql holds it', async () => {
      await expect(file.text()).toMatchFileSnapshot(
        `./__sql__/membership.${dialect}.sql`,
      );
    });
  },
);
