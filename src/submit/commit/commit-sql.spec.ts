import { SqlFile } from '../../../test/support/sql-file.js';
import type { SqlDialect } from '../../common/database/sql-statement.js';
import { CommitSql } from './commit-sql.js';

// The commit queue's own statements on the submit path, under review on both dialects: a
// batch's submissions, the honeypot counts, its Idempotency-Key rows and files.
describe.each<SqlDialect>(['mysql', 'sqlite'])(
  'commit queue SQL on %s',
  (dialect) => {
    const sql = new CommitSql(dialect);
    const file = new SqlFile('CommitSql');

    file.section("writes a batch's submissions and what goes with them", () => {
      file.add('insertSubmissions', sql.insertSubmissions);
      file.add('countHoneypot', sql.countHoneypot);
      file.add('insertIdempotency', sql.insertIdempotency);
      file.add('deleteIdempotency', sql.deleteIdempotency);
      if (dialect === 'mysql') file.add('insertFiles', sql.insertFiles);
    });

    it('writes one row per placeholder list on SQLite, the batch as `VALUES ?` on MySQL', () => {
      expect(
        sql.insertSubmissions.endsWith(
          dialect === 'sqlite'
            ? 'VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)'
            : 'VALUES ?',
        ),
      ).toBe(true);
    });

    it('builds every statement as __sql__/commit.<dialect>.sql holds it', async () => {
      await expect(file.text()).toMatchFileSnapshot(
        `./__sql__/commit.${dialect}.sql`,
      );
    });
  },
);
