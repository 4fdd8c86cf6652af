// A build started on a database that a newer release has already migrated: the migrations
// table names migrations this build does not have. Its entities would read and write a schema
// they do not describe (columns it does not fill, tables it does not know), so it must not
// serve; it refuses to start instead, naming what it does not know (docs/operations.md,
// "Upgrading and rolling back").
import type { DataSource } from 'typeorm';

/** The process exit code of a server, worker or command refused for that reason. */
export const UNKNOWN_MIGRATIONS_EXIT_CODE = 3;

export class UnknownMigrationsError extends Error {
  constructor(readonly names: string[]) {
    super(
      `The database has ${names.length === 1 ? 'a migration' : `${names.length} migrations`} this build of Formgate does not know (${names.join(', ')}): ` +
        'a newer release has upgraded it. Run that release (or newer), or restore the backup taken before the upgrade; ' +
        'to go back a release, revert the newer migrations with that release first (npm run migration:revert, see docs/operations.md).',
    );
    this.name = 'UnknownMigrationsError';
  }
}

/** The names in the migrations table that are not among this build's migrations, in order. */
export async function unknownMigrations(
  dataSource: DataSource,
): Promise<string[]> {
  const table = dataSource.options.migrationsTableName ?? 'migrations';
  const runner = dataSource.createQueryRunner();
  try {
    if (!(await runner.hasTable(table))) return [];
    const rows = (await runner.query(
      `SELECT ${runner.connection.driver.escape('name')} AS name FROM ${runner.connection.driver.escape(table)}`,
    )) as Array<{ name: string }>;
    const known = new Set(
      dataSource.migrations.map((m) => m.name ?? m.constructor.name),
    );
    return rows
      .map((row) => row.name)
      .filter((name) => !known.has(name))
      .sort((a, b) => timestampOf(a) - timestampOf(b));
  } finally {
    await runner.release();
  }
}

/** TypeORM names a migration class with its timestamp last (FormRetention1764840000000). */
function timestampOf(name: string): number {
  return Number(/(\d{13})$/.exec(name)?.[1] ?? 0);
}

/** Throws UnknownMigrationsError when the database was migrated past this build. */
export async function refuseUnknownMigrations(
  dataSource: DataSource,
): Promise<void> {
  const names = await unknownMigrations(dataSource);
  if (names.length > 0) throw new UnknownMigrationsError(names);
}
