// Column helpers that behave the same on MySQL/MariaDB and SQLite.
// Timestamps are written by the application (UTC, milliseconds) rather than by a
// database default, because SQLite's defaults only have second precision.
import { Column, ColumnOptions } from 'typeorm';

export const TIMESTAMP: ColumnOptions = { type: 'datetime', precision: 3 };

export function TimestampColumn(
  options: ColumnOptions = {},
): PropertyDecorator {
  return Column({ ...TIMESTAMP, ...options });
}

/** Random or ULID string identifiers (max 32 characters). */
export const ID = { type: 'varchar', length: 32 } as const;
