// What a failed statement means, read from the driver's error on MySQL/MariaDB and SQLite
// (TypeORM wraps it as `driverError`; the drivers used directly throw it bare). The one
// place that knows the drivers' codes: the error answer, the commit queue's writers and
// the services ask here.

/** The driver's code (`ER_…`, `SQLITE_…`, a Node socket code), wrapped or bare. */
export function driverCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, driverError } = error as {
    code?: unknown;
    driverError?: { code?: unknown };
  };
  if (typeof code === 'string') return code;
  return typeof driverError?.code === 'string' ? driverError.code : undefined;
}

function errnoOf(error: unknown): unknown {
  if (typeof error !== 'object' || error === null) return undefined;
  const { errno, driverError } = error as {
    errno?: unknown;
    driverError?: { errno?: unknown };
  };
  return errno ?? driverError?.errno;
}

/** Connection-level failures of MySQL/MariaDB/SQLite: the database is away, not broken. */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EPIPE',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'ER_CON_COUNT_ERROR',
  'ER_SERVER_SHUTDOWN',
  'ER_LOCK_WAIT_TIMEOUT',
  'POOL_CLOSED',
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
]);
/** TypeORM's and our own names for "there is no usable connection". */
const UNAVAILABLE_NAMES = new Set([
  'CannotExecuteNotConnectedError',
  'ConnectionIsNotSetError',
  'EntityMetadataNotFoundError',
  'DatabaseNotReadyError',
]);

/** The database is away (refused, dropped, timed out, busy): answer 503 and retry later. */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = driverCode(error);
  if (code !== undefined && UNAVAILABLE_CODES.has(code)) return true;
  if (UNAVAILABLE_NAMES.has(error.name)) return true;
  // Once the DataSource is closed, better-sqlite3 says "The database connection is not open"
  // and TypeORM's MySQL driver "Connection is not established with mysql database".
  return /connection (?:is )?(?:closed|lost|not open|not established)|pool is closed|not initialized/i.test(
    error.message,
  );
}

/** A unique index or the primary key refused the row (a duplicate). */
export function isUniqueViolation(error: unknown): boolean {
  const code = driverCode(error);
  return (
    code === 'ER_DUP_ENTRY' ||
    code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
  );
}

/**
 * A foreign key refused the row: the row it refers to is gone (a submission whose form was
 * deleted a moment ago).
 */
export function isMissingReference(error: unknown): boolean {
  const code = driverCode(error);
  return (
    code === 'ER_NO_REFERENCED_ROW_2' ||
    code === 'ER_NO_REFERENCED_ROW' ||
    errnoOf(error) === 1452 ||
    code === 'SQLITE_CONSTRAINT_FOREIGNKEY'
  );
}

/**
 * A constraint of the schema refused this row (unique, foreign key, not null, check): the
 * row's problem, not the database's. On SQLite everything else (busy, disk full, I/O) is
 * the database's.
 */
export function isConstraintViolation(error: unknown): boolean {
  const code = driverCode(error);
  if (code === undefined) return false;
  return (
    code.startsWith('SQLITE_CONSTRAINT') ||
    isUniqueViolation(error) ||
    isMissingReference(error) ||
    code === 'ER_BAD_NULL_ERROR' ||
    code === 'ER_CHECK_CONSTRAINT_VIOLATED'
  );
}

/** InnoDB rolled a transaction back to break a deadlock: nothing of it was written. */
export function isDeadlock(error: unknown): boolean {
  return driverCode(error) === 'ER_LOCK_DEADLOCK' || errnoOf(error) === 1213;
}
