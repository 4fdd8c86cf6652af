import { sqlDatetime, toDate } from '../../common/database/sql-dates.js';
import { isoTime } from './submission-rows.js';

describe('isoTime', () => {
  const same = (value: Date | string) =>
    expect(isoTime(value)).toBe(toDate(value).toISOString());

  it('rearranges a stored SQLite datetime into ISO 8601', () => {
    expect(isoTime('2024-05-06 07:08:09.012')).toBe('2024-05-06T07:08:09.012Z');
  });

  it('answers what toDate(value).toISOString() answers, whatever the value', () => {
    for (const value of [
      '2024-01-28 23:59:59.999',
      '0000-01-01 00:00:00.000',
      // Days that may roll over into the next month go through toDate.
      '2023-02-29 00:00:00.000',
      '2024-02-31 12:00:00.000',
      '2024-04-30 10:00:00.000',
      '2024-12-31 23:59:59.999',
      // Other spellings a driver may hand back.
      '2024-05-06T07:08:09.012Z',
      '2024-05-06 07:08:09',
      '2024-05-06T07:08:09.012+02:00',
      new Date('2024-05-06T07:08:09.012Z'),
    ]) {
      same(value);
    }
    for (let t = Date.UTC(2019, 0, 1); t < Date.UTC(2027, 0, 1); t += 7.77e7) {
      same(sqlDatetime(new Date(t)));
    }
  });

  it('throws on a date that is no date, as toDate().toISOString() does', () => {
    expect(() => isoTime('2024-13-01 00:00:00.000')).toThrow(RangeError);
  });
});
