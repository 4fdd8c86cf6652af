import { SqlFile } from '../../../test/support/sql-file.js';
import type { SqlDialect } from '../../common/database/sql-statement.js';
import { MailQuotaSql, quotaDay } from './mail-quota-sql.js';

// The statements that hold the mail caps, on both dialects, kept under review: the
// reservation must stay one conditional UPDATE.
const NOW = new Date('2026-03-01T12:00:00.123Z');
const RULE = {
  subject: 'address:ada@example.com',
  perDay: 3,
  maxUnanswered: 3,
  quietMs: 30 * 24 * 3600 * 1000,
};

describe.each<SqlDialect>(['mysql', 'sqlite'])(
  'mail caps SQL on %s',
  (dialect) => {
    const sql = new MailQuotaSql(dialect);
    const file = new SqlFile('MailQuotaSql');

    file.section(
      'creates a row, reserves, releases and resets with one statement each',
      () => {
        file.add('ensure', sql.ensure(RULE.subject));
        file.add('reserve', sql.reserve(RULE, NOW));
        file.add('release', sql.release(RULE.subject, NOW));
        file.add('answered', sql.answered(RULE.subject));
      },
    );

    file.section(
      'finds and deletes rows that cap nothing any more, in batches',
      () => {
        file.add('outlived', sql.outlived(NOW, 500));
        file.add(
          'deleteOutlived',
          sql.deleteOutlived(['account:a', 'address:b@example.com'], NOW),
        );
      },
    );

    it('counts by UTC day and starts the quiet month at the last mail', () => {
      expect(quotaDay(new Date('2026-03-01T23:59:59.999Z'))).toBe('2026-03-01');
      expect(quotaDay(new Date('2026-03-02T00:00:00.000Z'))).toBe('2026-03-02');
      const { params } = sql.reserve(RULE, NOW);
      expect(params).toEqual([
        '2026-03-01',
        '2026-01-30 12:00:00.123',
        '2026-03-01',
        '2026-03-01 12:00:00.123',
        'address:ada@example.com',
        '2026-03-01',
        3,
        3,
        '2026-01-30 12:00:00.123',
      ]);
    });

    it('builds every statement as __sql__/mail-quota.<dialect>.sql holds it', async () => {
      await expect(file.text()).toMatchFileSnapshot(
        `./__sql__/mail-quota.${dialect}.sql`,
      );
    });
  },
);
