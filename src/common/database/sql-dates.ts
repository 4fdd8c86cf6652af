// Dates as the hand-written SQL writes and reads them: SQLite keeps datetime(3) as text,
// MySQL and MariaDB hand back a Date, so every reader of rows converts through here.

/** "YYYY-MM-DD HH:MM:SS.mmm" UTC: how datetime(3) is stored on SQLite and compared on MySQL. */
export function sqlDatetime(date: Date): string {
  return date.toISOString().replace('T', ' ').replace('Z', '');
}

/** better-sqlite3 hands back DATETIME as "YYYY-MM-DD HH:MM:SS.SSS" in UTC. */
export function toDate(value: Date | string): Date {
  if (value instanceof Date) return value;
  const iso = value.includes('T') ? value : value.replace(' ', 'T');
  return new Date(/(Z|[+-]\d\d:?\d\d)$/.test(iso) ? iso : `${iso}Z`);
}
