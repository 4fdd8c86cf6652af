import { SqlFile } from '../../test/support/sql-file.js';
import type { SqlDialect } from '../common/database/sql-statement.js';
import { FormSpamStatSql } from './form-spam-stat-sql.js';

// The daily counts of posts turned away, under review on both dialects: one upsert per form
// and day, and the sum since a day.
describe.each<SqlDialect>(['mysql', 'sqlite'])(
  'form_spam_stat SQL on %s',
  (dialect) => {
    const sql = new FormSpamStatSql(dialect);
    const file = new SqlFile('FormSpamStatSql');

    file.section(
      "adds a form's counts of a day, and sums them since a day",
      () => {
        file.add(
          'add',
          sql.add({
            formId: 'form-1',
            day: '2026-03-01',
            honeypot: 2,
            captcha: 1,
          }),
        );
        file.add('since', sql.since('form-1', '2026-02-01'));
      },
    );

    it('builds every statement as __sql__/form-spam-stat.<dialect>.sql holds it', async () => {
      await expect(file.text()).toMatchFileSnapshot(
        `./__sql__/form-spam-stat.${dialect}.sql`,
      );
    });
  },
);
