import {
  driverCode,
  isConstraintViolation,
  isDatabaseUnavailable,
  isDeadlock,
  isMissingReference,
  isUniqueViolation,
} from './driver-errors.js';

/** A driver error as mysql2 or better-sqlite3 throw it. */
function bare(code: string, errno?: number): Error {
  return Object.assign(new Error(code), { code, errno });
}

/** The same, wrapped the way TypeORM's QueryFailedError carries it. */
function wrapped(code: string, errno?: number): Error {
  return Object.assign(new Error(`query failed: ${code}`), {
    name: 'QueryFailedError',
    driverError: bare(code, errno),
  });
}

describe('what a driver error means', () => {
  it('reads the code of a bare or a wrapped driver error', () => {
    expect(driverCode(bare('ER_DUP_ENTRY'))).toBe('ER_DUP_ENTRY');
    expect(driverCode(wrapped('SQLITE_BUSY'))).toBe('SQLITE_BUSY');
    expect(driverCode('ER_DUP_ENTRY')).toBeUndefined();
    expect(driverCode(null)).toBeUndefined();
  });

  it('tells a database that is away from one that refused a row', () => {
    for (const code of [
      'ECONNREFUSED',
      'PROTOCOL_CONNECTION_LOST',
      'SQLITE_BUSY',
    ]) {
      expect(isDatabaseUnavailable(bare(code))).toBe(true);
      expect(isDatabaseUnavailable(wrapped(code))).toBe(true);
    }
    expect(
      isDatabaseUnavailable(
        Object.assign(new Error('x'), {
          name: 'CannotExecuteNotConnectedError',
        }),
      ),
    ).toBe(true);
    expect(isDatabaseUnavailable(new Error('Pool is closed.'))).toBe(true);
    // A closed DataSource: better-sqlite3 as TypeORM wraps it, and TypeORM's MySQL driver.
    expect(
      isDatabaseUnavailable(
        new Error('Connection is not established with mysql database'),
      ),
    ).toBe(true);
    expect(
      isDatabaseUnavailable(
        Object.assign(
          new Error('TypeError: The database connection is not open'),
          { name: 'QueryFailedError' },
        ),
      ),
    ).toBe(true);
    expect(isDatabaseUnavailable(bare('ER_DUP_ENTRY'))).toBe(false);
    expect(isDatabaseUnavailable({ code: 'ECONNREFUSED' })).toBe(false);
  });

  it('recognises a duplicate on both databases', () => {
    expect(isUniqueViolation(bare('ER_DUP_ENTRY', 1062))).toBe(true);
    expect(isUniqueViolation(wrapped('SQLITE_CONSTRAINT_UNIQUE'))).toBe(true);
    expect(isUniqueViolation(bare('SQLITE_CONSTRAINT_FOREIGNKEY'))).toBe(false);
  });

  it('recognises a row whose referenced row is gone, by code or by errno', () => {
    expect(isMissingReference(bare('ER_NO_REFERENCED_ROW_2', 1452))).toBe(true);
    expect(
      isMissingReference(Object.assign(new Error(), { errno: 1452 })),
    ).toBe(true);
    expect(isMissingReference(bare('SQLITE_CONSTRAINT_FOREIGNKEY'))).toBe(true);
    expect(isMissingReference(wrapped('ER_NO_REFERENCED_ROW'))).toBe(true);
    expect(isMissingReference(bare('ER_DUP_ENTRY'))).toBe(false);
  });

  it("counts the schema's refusals as the row's problem, nothing else", () => {
    for (const code of [
      'SQLITE_CONSTRAINT_NOTNULL',
      'SQLITE_CONSTRAINT_UNIQUE',
      'ER_DUP_ENTRY',
      'ER_BAD_NULL_ERROR',
      'ER_NO_REFERENCED_ROW_2',
    ]) {
      expect(isConstraintViolation(bare(code))).toBe(true);
    }
    for (const code of ['SQLITE_FULL', 'SQLITE_IOERR', 'ECONNRESET']) {
      expect(isConstraintViolation(bare(code))).toBe(false);
    }
    expect(isConstraintViolation(new Error('no code'))).toBe(false);
  });

  it('recognises a deadlock victim', () => {
    expect(isDeadlock(bare('ER_LOCK_DEADLOCK', 1213))).toBe(true);
    expect(isDeadlock(Object.assign(new Error(), { errno: 1213 }))).toBe(true);
    expect(isDeadlock(bare('ER_LOCK_WAIT_TIMEOUT', 1205))).toBe(false);
  });
});
