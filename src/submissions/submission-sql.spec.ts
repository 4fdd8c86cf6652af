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

    it('reads a first page, newest first', () => {
      expect(
        sql.rows({ formId: FORM, filters: {}, direction: 'DESC', limit: 26 }),
      ).toMatchSnapshot();
    });

    it('reads a status tab along its index, with assignee and label filters', () => {
      expect(
        sql.rows({
          formId: FORM,
          filters: { status: 'new', assignee: 'u1', labelId: 'l1' },
          direction: 'DESC',
          limit: 26,
        }),
      ).toMatchSnapshot();
      expect(
        sql.rows({
          formId: FORM,
          filters: { assignee: null },
          direction: 'DESC',
          limit: 26,
        }),
      ).toMatchSnapshot();
    });

    it('reads search candidates by their ids, along the primary key', () => {
      expect(
        sql.rows({
          formId: FORM,
          filters: { q: 'zanzibar' },
          direction: 'DESC',
          limit: 26,
          ids: ['a', 'b'],
        }),
      ).toMatchSnapshot();
      expect(sql.countedRows(FORM, ['a'])).toMatchSnapshot();
    });

    it('reads the page after a cursor, within a date range', () => {
      expect(
        sql.rows({
          formId: FORM,
          filters: { from: FROM, to: TO },
          direction: 'DESC',
          after: POSITION,
          limit: 26,
        }),
      ).toMatchSnapshot();
    });

    it('searches values inside a scan window', () => {
      expect(
        sql.rows({
          formId: FORM,
          filters: { q: 'Ünïcode 100%_!' },
          direction: 'DESC',
          after: POSITION,
          through: THROUGH,
          limit: 500,
        }),
      ).toMatchSnapshot();
    });

    it('finds the end of a search window on the index', () => {
      expect(
        sql.rows({
          formId: FORM,
          filters: {},
          direction: 'ASC',
          after: POSITION,
          columns: ['createdAt', 'id'],
          limit: 1,
          offset: 9999,
        }),
      ).toMatchSnapshot();
    });

    it('reads ids oldest first for a bulk delete', () => {
      expect(
        sql.rows({
          formId: FORM,
          filters: { to: TO },
          direction: 'ASC',
          columns: ['id'],
          limit: 1000,
        }),
      ).toMatchSnapshot();
    });

    it('reads every column of one submission', () => {
      expect(sql.findOne(FORM, POSITION.id)).toMatchSnapshot();
      expect(sql.findOne(FORM, POSITION.id).sql).toContain(
        ALL_COLUMNS.map((c) => sql.e(c)).join(', '),
      );
    });

    it('reads listed submissions of any form, every column or some', () => {
      expect(sql.findMany([POSITION.id, THROUGH.id])).toMatchSnapshot();
      expect(
        sql.findMany([POSITION.id], ['id', 'formId', 'createdAt']),
      ).toMatchSnapshot();
    });

    it('deletes listed submissions of a form', () => {
      expect(sql.deleteIds(FORM, [POSITION.id, THROUGH.id])).toMatchSnapshot();
    });

    it('counts submissions per form', () => {
      expect(sql.countByForms([FORM, 'other'])).toMatchSnapshot();
    });

    it('counts submissions per UTC day', () => {
      expect(sql.dailyCounts(FORM, FROM)).toMatchSnapshot();
    });

    it('reads the spam folder', () => {
      expect(
        sql.rows({
          formId: FORM,
          filters: { spam: true, to: TO },
          direction: 'ASC',
          columns: ['id'],
          limit: 500,
        }),
      ).toMatchSnapshot();
      expect(sql.countByForms([FORM], true)).toMatchSnapshot();
    });

    it("reads a form's recent clean data from one IP, a bounded range", () => {
      expect(sql.recentFromIp(FORM, '203.0.113.9', FROM)).toMatchSnapshot();
    });

    it('moves a submission into or out of the spam folder only from the other one', () => {
      expect(
        sql.moveToFolder(FORM, POSITION.id, true, '["marked-by-owner"]'),
      ).toMatchSnapshot();
      expect(
        sql.moveToFolder(FORM, POSITION.id, false, null),
      ).toMatchSnapshot();
    });

    it('counts submissions in a range', () => {
      expect(sql.countInRange(FORM, { from: FROM, to: TO })).toMatchSnapshot();
      expect(sql.countInRange(FORM, {})).toMatchSnapshot();
    });

    it('scans a window for an address (erasure), ASCII and not', () => {
      expect(
        sql.addressWindow(FORM, false, undefined, 500, 'ada@example.com'),
      ).toMatchSnapshot();
      expect(
        sql.addressWindow(FORM, true, POSITION, 2000, 'zoë@exämple.com'),
      ).toMatchSnapshot();
    });

    it('reads every column of listed submissions', () => {
      expect(sql.rowsByIds(FORM, [POSITION.id, THROUGH.id])).toMatchSnapshot();
    });
  },
);
