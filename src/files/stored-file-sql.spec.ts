import { SqlFile } from '../../test/support/sql-file.js';
import type { SqlDialect } from '../common/database/sql-statement.js';
import { StoredFileSql } from './stored-file-sql.js';

// The SQL of every statement on stored_file, on both dialects, kept under review.
const FORM = 'form0000000000000000000000';
const SUBMISSIONS = [
  '01JSUBMISSION0000000000000',
  '01JSUBMISSION0000000000001',
];

describe.each<SqlDialect>(['mysql', 'sqlite'])(
  'stored_file SQL on %s',
  (dialect) => {
    const sql = new StoredFileSql(dialect);
    const file = new SqlFile('StoredFileSql');

    file.section('inserts rows', () => {
      file.add('insert', sql.insert(1));
      file.add('insert', sql.insert(2));
    });

    file.section('reads one file only through its form and submission', () => {
      file.add('findOne', sql.findOne(FORM, SUBMISSIONS[0], 'file1'));
    });

    file.section(
      'reads and deletes the files of submissions, by the submission index',
      () => {
        file.add('ofSubmissions', sql.ofSubmissions(FORM, SUBMISSIONS));
        file.add(
          'deleteOfSubmissions',
          sql.deleteOfSubmissions(FORM, SUBMISSIONS),
        );
      },
    );

    file.section(
      'reads a file by its id, and the file ids of submissions by the submission index',
      () => {
        file.add('findById', sql.findById('file1'));
        file.add('idsOfSubmissions', sql.idsOfSubmissions(SUBMISSIONS));
      },
    );

    file.section(
      'finds which objects have rows, by primary key, and sums an account',
      () => {
        file.add('existing', sql.existing(['a', 'b']));
        file.add('accountBytes', sql.accountBytes('account1'));
      },
    );

    it('builds every statement as __sql__/stored-file.<dialect>.sql holds it', async () => {
      await expect(file.text()).toMatchFileSnapshot(
        `./__sql__/stored-file.${dialect}.sql`,
      );
    });
  },
);
