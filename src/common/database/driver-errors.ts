// What a failed statement means, read from the driver's error code on MySQL/MariaDB and
// SQLite (TypeORM wraps it as `driverError`; the drivers used directly throw it bare).

function codeOf(error: unknown): unknown {
  const driverError = (error as { driverError?: { code?: unknown } } | null)
    ?.driverError;
  return driverError?.code ?? (error as { code?: unknown } | null)?.code;
}

/** A unique index refused the row (a duplicate). */
export function isUniqueViolation(error: unknown): boolean {
  const code = codeOf(error);
  return code === 'ER_DUP_ENTRY' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}
