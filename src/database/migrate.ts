// Applies pending migrations and exits: `npm run migration:run` without the TypeORM CLI,
// and the one-shot `migrate` service of docker-compose.yml (so scaled app replicas never
// race to migrate).
import 'reflect-metadata';
import { DataSource } from 'typeorm';
import {
  refuseUnknownMigrations,
  UNKNOWN_MIGRATIONS_EXIT_CODE,
  UnknownMigrationsError,
} from '../common/database/unknown-migrations.js';
import { ConfigError, loadConfig } from '../config/app-config.js';
import { withEnvFile } from '../config/env-file.js';
import { buildDataSourceOptions } from './database-options.js';

async function main(): Promise<void> {
  const config = loadConfig(withEnvFile().env);
  const dataSource = new DataSource(
    buildDataSourceOptions(config.database, false),
  );
  await dataSource.initialize();
  try {
    await refuseUnknownMigrations(dataSource);
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    console.log(
      applied.length === 0
        ? 'migrations: the schema is up to date'
        : `migrations: applied ${applied.map((m) => m.name).join(', ')}`,
    );
  } finally {
    await dataSource.destroy();
  }
}

main().catch((error: unknown) => {
  const known =
    error instanceof ConfigError || error instanceof UnknownMigrationsError;
  console.error(known ? error.message : error);
  process.exit(
    error instanceof UnknownMigrationsError ? UNKNOWN_MIGRATIONS_EXIT_CODE : 1,
  );
});
