import { SqlFile } from '../../../test/support/sql-file.js';
import type { SqlDialect } from '../../common/database/sql-statement.js';
import { FormCounterSql } from './form-counter-sql.js';
import { CounterChanges } from './form-counters.js';

// The counters' statements under review on both dialects: every write one upsert that adds
// its deltas, every read one indexed lookup of the form's counter rows.
describe.each<SqlDialect>(['mysql', 'sqlite'])(
  'form counter SQL on %s',
  (dialect) => {
    const sql = new FormCounterSql(dialect);
    const file = new SqlFile('FormCounterSql');

    file.section('adds deltas to forms and days with one upsert each', () => {
      file.add('adjust', sql.adjust(2));
      file.add('adjustDays', sql.adjustDays(1));
      file.add('adjustWith', sql.adjustWith('?'));
    });

    file.section('reads counters, days and a full recount', () => {
      file.add('countersOf', sql.countersOf(['f1', 'f2']));
      file.add('daysOf', sql.daysOf('f1', '2026-11-03'));
      file.add('fullCount', sql.fullCount('f1'));
      file.add('fullDays', sql.fullDays('f1'));
      file.add('replaceCounter', sql.replaceCounter());
    });

    it('builds every statement as __sql__/form_counter.<dialect>.sql holds it', async () => {
      await expect(file.text()).toMatchFileSnapshot(
        `./__sql__/form_counter.${dialect}.sql`,
      );
    });
  },
);

describe('CounterChanges', () => {
  const at = '2026-12-01 10:00:00.000';

  it('counts a clean row in its status and day, and spam in the folder only', () => {
    const changes = new CounterChanges()
      .row({ formId: 'f', spam: 0, status: 'new', createdAt: at }, 1)
      .row({ formId: 'f', spam: 1, status: 'new', createdAt: at }, 1)
      .row({ formId: 'f', spam: false, status: 'closed', createdAt: at }, -1);
    expect(changes.formRows()).toEqual([
      [
        'f',
        {
          total: 0,
          spam: 1,
          new: 1,
          open: 0,
          closed: -1,
          lastAt: '2026-12-01 10:00:00.000',
        },
      ],
    ]);
    // +1 and -1 on the same day cancel out: no statement for it.
    expect(changes.dayRows()).toEqual([]);
  });

  it('moves a status and leaves the totals', () => {
    const changes = new CounterChanges()
      .status('f', 'new', 'open')
      .status('f', 'open', 'open');
    expect(changes.formRows()).toEqual([
      ['f', { total: 0, spam: 0, new: -1, open: 1, closed: 0 }],
    ]);
    expect(new CounterChanges().status('f', 'open', 'open').empty).toBe(true);
  });

  it('sorts forms and days so parallel writers lock in one order', () => {
    const changes = new CounterChanges()
      .row({ formId: 'b', spam: 0, status: 'new', createdAt: at }, 1)
      .row({ formId: 'a', spam: 0, status: 'new', createdAt: at }, 1)
      .sorted();
    expect(changes.formRows().map(([id]) => id)).toEqual(['a', 'b']);
    expect(changes.dayRows()).toEqual([
      ['a', '2026-12-01', 1],
      ['b', '2026-12-01', 1],
    ]);
  });
});
