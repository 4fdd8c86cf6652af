import { SqlFile } from '../../test/support/sql-file.js';
import type { SqlDialect } from '../common/database/sql-statement.js';
import { IdempotencyRecordSql } from './idempotency-record-sql.js';

// The Idempotency-Key records' statements, under review on both dialects.
describe.each<SqlDialect>(['mysql', 'sqlite'])(
  'idempotency_record SQL on %s',
  (dialect) => {
    const sql = new IdempotencyRecordSql(dialect);
    const file = new SqlFile('IdempotencyRecordSql');

    file.section('looks a key up, claims, completes and releases it', () => {
      file.add('select', sql.select);
      file.add('insert', sql.insert);
      file.add('deleteExpired', sql.deleteExpired);
      file.add('complete', sql.complete);
      file.add('release', sql.release);
    });

    it('builds every statement as __sql__/idempotency-record.<dialect>.sql holds it', async () => {
      await expect(file.text()).toMatchFileSnapshot(
        `./__sql__/idempotency-record.${dialect}.sql`,
      );
    });
  },
);
