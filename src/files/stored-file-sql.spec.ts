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

    it('inserts rows', () => {
      expect(sql.insert(1)).toMatchSnapshot();
      expect(sql.insert(2)).toMatchSnapshot();
    });

    it('reads one file only through its form and submission', () => {
      expect(sql.findOne(FORM, SUBMISSIONS[0], 'file1')).toMatchSnapshot();
    });

    it('reads and deletes the files of submissions, by the submission index', () => {
      expect(sql.ofSubmissions(FORM, SUBMISSIONS)).toMatchSnapshot();
      expect(sql.deleteOfSubmissions(FORM, SUBMISSIONS)).toMatchSnapshot();
    });

    it('reads a file by its id, and the file ids of submissions by the submission index', () => {
      expect(sql.findById('file1')).toMatchSnapshot();
      expect(sql.idsOfSubmissions(SUBMISSIONS)).toMatchSnapshot();
    });

    it('finds which objects have rows, by primary key, and sums an account', () => {
      expect(sql.existing(['a', 'b'])).toMatchSnapshot();
      expect(sql.accountBytes('account1')).toMatchSnapshot();
    });
  },
);
