import { SqlFile } from '../../test/support/sql-file.js';
import type { SqlDialect } from '../common/database/sql-statement.js';
import { UsedCaptchaTokenSql } from './used-captcha-token-sql.js';

// The used CAPTCHA answers, under review on both dialects: a batch of claims, each kept
// only when its answer is new (SQLite: one prepared insert per claim; MySQL/MariaDB: one
// insert for the batch, then which rows it won when some answer was used before).
describe.each<SqlDialect>(['mysql', 'sqlite'])(
  'used_captcha_token SQL on %s',
  (dialect) => {
    const sql = new UsedCaptchaTokenSql(dialect);
    const file = new SqlFile('UsedCaptchaTokenSql');
    const expiresAt = new Date('2026-03-01T12:00:00.000Z');

    file.section('claims a batch of answers, and which it won', () => {
      if (dialect === 'sqlite') {
        file.add('claimOne', sql.claimOne({ id: 'a1', expiresAt }, 'batch-1'));
      } else {
        file.add(
          'claimAll',
          sql.claimAll(
            [
              { id: 'a1', expiresAt },
              { id: 'a2', expiresAt },
            ],
            'batch-1',
          ),
        );
        file.add('won', sql.won('batch-1', ['a1', 'a2']));
      }
    });

    it('writes a claim with its expiry as the dialect stores a datetime', () => {
      const params =
        dialect === 'sqlite'
          ? sql.claimOne({ id: 'a1', expiresAt }, 'b').params
          : (
              sql.claimAll([{ id: 'a1', expiresAt }], 'b')
                .params[0] as unknown[][]
            )[0];
      expect(params).toEqual([
        'a1',
        dialect === 'sqlite' ? '2026-03-01 12:00:00.000' : expiresAt,
        'b',
      ]);
    });

    it('builds every statement as __sql__/used-captcha-token.<dialect>.sql holds it', async () => {
      await expect(file.text()).toMatchFileSnapshot(
        `./__sql__/used-captcha-token.${dialect}.sql`,
      );
    });
  },
);
