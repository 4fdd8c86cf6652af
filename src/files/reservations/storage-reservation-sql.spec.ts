import { SqlFile } from '../../../test/support/sql-file.js';
import type { SqlDialect } from '../../common/database/sql-statement.js';
import { StorageReservationSql } from './storage-reservation-sql.js';

// The statements that hold MAX_STORAGE_PER_ACCOUNT under concurrency, on both dialects,
// kept under review: a reservation must stay one conditional UPDATE.
const NOW = new Date('2026-12-01T12:00:00.123Z');

describe.each<SqlDialect>(['mysql', 'sqlite'])(
  'storage reservation SQL on %s',
  (dialect) => {
    const sql = new StorageReservationSql(dialect);
    const file = new SqlFile('StorageReservationSql');

    file.section(
      'creates a row, reserves and releases with one statement each',
      () => {
        file.add('ensure', sql.ensure('01ACCOUNT'));
        file.add(
          'reserve',
          sql.reserve('01ACCOUNT', 1_048_576, 5_242_880, NOW),
        );
        file.add('release', sql.release('01ACCOUNT', 4096, NOW));
      },
    );

    it('builds every statement as __sql__/storage-reservation.<dialect>.sql holds it', async () => {
      await expect(file.text()).toMatchFileSnapshot(
        `./__sql__/storage-reservation.${dialect}.sql`,
      );
    });
  },
);
