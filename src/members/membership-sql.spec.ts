import type { SqlDialect } from '../common/database/sql-statement.js';
import { MembershipSql } from './membership-sql.js';

// The statements that keep an account's last owner, under review on both dialects: each
// change must stay one statement that counts the owners in its WHERE.
const NOW = new Date('2026-12-01T12:00:00.123Z');

describe.each<SqlDialect>(['mysql', 'sqlite'])(
  'membership SQL on %s',
  (dialect) => {
    const sql = new MembershipSql(dialect);

    it('changes a role and removes a member in one conditional statement each', () => {
      expect(sql.changeRole('acc', 'usr', 'viewer', NOW)).toMatchSnapshot();
      expect(sql.remove('acc', 'usr')).toMatchSnapshot();
    });
  },
);
