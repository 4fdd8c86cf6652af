import { SqlFile } from '../../test/support/sql-file.js';
import {
  ALL_COLUMNS,
  SubmissionSql,
  type SqlDialect,
} from './submission-sql.js';

// The SQL of every submission query, on both dialects, kept under review: a change to
// a statement (an index hint, a bound, a search predicate) shows up in the snapshot.
const FORM = '01JFORM0000000000000000000';
const POSITION = {
  createdAt: new Date('2025-03-01T12:00:00.123Z'),
  id: '01JSUBMISSION0000000000000',
};
const THROUGH = {
  createdAt: new Date('2025-02-01T08:30:00.000Z'),
  id: '01JSUBMISSION0000000000001',
};
const FROM = new Date('2025-01-01T00:00:00.000Z');
const TO = new Date('2025-06-01T00:00:00.000Z');

describe.each<SqlDialect>(['mysql', 'sqlite'])(
  'submission SQL on %s',
  (dialect) => {
    const sql = new SubmissionSql(dialect);
    const file = new SqlFile('SubmissionSql');

    file.section('reads a first page, newest first', () => {
      file.add(
        'rows',
        sql.rows({ formId: FORM, filters: {}, direction: 'DESC', limit: 26 }),
      );
    });

    file.section(
      'reads a status tab along its index, with assignee and label filters',
      () => {
        file.add(
          'rows',
          sql.rows({
            formId: FORM,
            filters: { status: 'new', assignee: 'u1', labelId: 'l1' },
            direction: 'DESC',
            limit: 26,
          }),
        );
        file.add(
          'rows',
          sql.rows({
            formId: FORM,
            filters: { assignee: null },
            direction: 'DESC',
            limit: 26,
          }),
        );
      },
    );

    file.section(
      'reads search candidates by their ids, along the primary key',
      () => {
        file.add(
          'rows',
          sql.rows({
            formId: FORM,
            filters: { q: 'zanzibar' },
            direction: 'DESC',
            limit: 26,
            ids: ['a', 'b'],
          }),
        );
        file.add('countedRows', sql.countedRows(FORM, ['a']));
      },
    );

    file.section('reads the page after a cursor, within a date range', () => {
      file.add(
        'rows',
        sql.rows({
          formId: FORM,
          filters: { from: FROM, to: TO },
          direction: 'DESC',
          after: POSITION,
          limit: 26,
        }),
      );
    });

    file.section('searches values inside a scan window', () => {
      file.add(
        'rows',
        sql.rows({
          formId: FORM,
          filters: { q: 'Ünïcode 100%_!' },
          direction: 'DESC',
          after: POSITION,
          through: THROUGH,
          limit: 500,
        }),
      );
    });

    file.section('finds the end of a search window on the index', () => {
      file.add(
        'rows',
        sql.rows({
          formId: FORM,
          filters: {},
          direction: 'ASC',
          after: POSITION,
          columns: ['createdAt', 'id'],
          limit: 1,
          offset: 9999,
        }),
      );
    });

    file.section('reads ids oldest first for a bulk delete', () => {
      file.add(
        'rows',
        sql.rows({
          formId: FORM,
          filters: { to: TO },
          direction: 'ASC',
          columns: ['id'],
          limit: 1000,
        }),
      );
    });

    file.section('reads every column of one submission', () => {
      file.add('findOne', sql.findOne(FORM, POSITION.id));
    });

    it('reads every column of one submission', () => {
      expect(sql.findOne(FORM, POSITION.id).sql).toContain(
        ALL_COLUMNS.map((c) => sql.e(c)).join(', '),
      );
    });

    file.section(
      'reads listed submissions of any form, every column or some',
      () => {
        file.add('findMany', sql.findMany([POSITION.id, THROUGH.id]));
        file.add(
          'findMany',
          sql.findMany([POSITION.id], ['id', 'formId', 'createdAt']),
        );
      },
    );

    file.section('deletes listed submissions of a form', () => {
      file.add('deleteIds', sql.deleteIds(FORM, [POSITION.id, THROUGH.id]));
    });

    file.section('counts submissions per form', () => {
      file.add('countByForms', sql.countByForms([FORM, 'other']));
    });

    file.section('counts submissions per UTC day', () => {
      file.add('dailyCounts', sql.dailyCounts(FORM, FROM));
    });

    file.section('reads the spam folder', () => {
      file.add(
        'rows',
        sql.rows({
          formId: FORM,
          filters: { spam: true, to: TO },
          direction: 'ASC',
          columns: ['id'],
          limit: 500,
        }),
      );
      file.add('countByForms', sql.countByForms([FORM], true));
    });

    file.section(
      "reads a form's recent clean data from one IP, a bounded range",
      () => {
        file.add('recentFromIp', sql.recentFromIp(FORM, '203.0.113.9', FROM));
      },
    );

    file.section(
      'moves a submission into or out of the spam folder only from the other one',
      () => {
        file.add(
          'moveToFolder',
          sql.moveToFolder(FORM, POSITION.id, true, '["marked-by-owner"]'),
        );
        file.add(
          'moveToFolder',
          sql.moveToFolder(FORM, POSITION.id, false, null),
        );
      },
    );

    file.section('counts submissions in a range', () => {
      file.add('countInRange', sql.countInRange(FORM, { from: FROM, to: TO }));
      file.add('countInRange', sql.countInRange(FORM, {}));
      file.add(
        'countInRange',
        sql.countInRange(FORM, { from: FROM, to: TO, status: 'new' }),
      );
    });

    file.section(
      'scans a window for an address (erasure), ASCII and not',
      () => {
        file.add(
          'addressWindow',
          sql.addressWindow(FORM, false, undefined, 500, 'ada@example.com'),
        );
        file.add(
          'addressWindow',
          sql.addressWindow(FORM, true, POSITION, 2000, 'zoë@exämple.com'),
        );
      },
    );

    file.section('reads every column of listed submissions', () => {
      file.add('rowsByIds', sql.rowsByIds(FORM, [POSITION.id, THROUGH.id]));
    });

    it('builds every statement as __sql__/submission.<dialect>.sql holds it', async () => {
      await expect(file.text()).toMatchFileSnapshot(
        `./__sql__/submission.${dialect}.sql`,
      );
    });
  },
);
