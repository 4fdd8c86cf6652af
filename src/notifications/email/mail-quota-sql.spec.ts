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

    it('creates a row, reserves, releases and resets with one statement each', () => {
      expect(sql.ensure(RULE.subject)).toMatchSnapshot();
      expect(sql.reserve(RULE, NOW)).toMatchSnapshot();
      expect(sql.release(RULE.subject, NOW)).toMatchSnapshot();
      expect(sql.answered(RULE.subject)).toMatchSnapshot();
    });

    it('finds and deletes rows that cap nothing any more, in batches', () => {
      expect(sql.outlived(NOW, 500)).toMatchSnapshot();
      expect(
        sql.deleteOutlived(['account:a', 'address:b@example.com'], NOW),
      ).toMatchSnapshot();
    });

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
  },
);
