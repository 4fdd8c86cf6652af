// Schema-drift check: applies every migration to the configured database, then asks
// TypeORM which statements would make the schema match the entities. Any statement
// means entities and migrations disagree; they are printed and the exit code is 1.
import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { ConfigError, loadConfig } from '../config/app-config.js';
import { withEnvFile } from '../config/env-file.js';
import { buildDataSourceOptions } from './database-options.js';
import { serverDialect } from './server-dialect.js';

async function main(): Promise<number> {
  const config = loadConfig(withEnvFile().env);
  const { database, note } = await serverDialect(config.database);
  if (note) console.error(`schema check: ${note}`);
  const dataSource = new DataSource(buildDataSourceOptions(database, false));
  await dataSource.initialize();
  try {
    await dataSource.runMigrations({ transaction: 'each' });
    const { upQueries } = await dataSource.driver.createSchemaBuilder().log();
    if (upQueries.length === 0) {
      console.log(
        `schema check (${database.type}): entities and migrations agree`,
      );
      return 0;
    }
    console.error(
      `schema check (${database.type}): drift found, missing statements:`,
    );
    for (const query of upQueries) console.error(`  ${query.query};`);
    return 1;
  } finally {
    await dataSource.destroy();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(1);
  },
);
