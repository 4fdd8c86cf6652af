// The one DataSource definition, shared by the Nest app and the migration CLI.
import type { DataSourceOptions } from 'typeorm';
import { MIGRATIONS } from '../../migrations/index.js';
import { DB_DEADLINE_MS } from '../common/database/database-deadline.js';
import type { DatabaseConfig } from '../config/app-config.js';
import { ENTITIES } from './entities.js';
import { sqliteDriverModule } from './sqlite-driver.js';

export function buildDataSourceOptions(
  database: DatabaseConfig,
  migrationsRun: boolean,
): DataSourceOptions {
  const common = {
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsRun,
    synchronize: false,
    logging: false,
  };
  if (database.type === 'sqlite') {
    return {
      ...common,
      type: 'better-sqlite3',
      driver: sqliteDriverModule(),
      // One transaction for all pending migrations: a first boot writes the whole schema
      // with one commit (one fsync) instead of one per migration, and a migration that fails
      // leaves the database as it was.
      migrationsTransactionMode: 'all',
      database: database.path,
      enableWAL: database.path !== ':memory:',
      // Wait for a write lock instead of failing at once when another writer holds it.
      timeout: DB_DEADLINE_MS,
      // Every commit reaches the disk before it returns (an fsync of the write-ahead log):
      // an acknowledged submission survives a power loss, not only a crash of the process.
      // Batching by the commit queue pays that fsync once per batch.
      prepareDatabase: (db: { pragma(source: string): unknown }) => {
        db.pragma('synchronous = FULL');
      },
    };
  }
  return {
    ...common,
    type: database.type,
    // MariaDB/MySQL commit every DDL statement on their own: one migration at a time.
    migrationsTransactionMode: 'each',
    url: database.url,
    charset: 'utf8mb4_unicode_ci',
    timezone: 'Z',
    connectTimeout: DB_DEADLINE_MS,
    poolSize: 10,
    extra: {
      // mysql2 would otherwise queue for a free connection forever.
      queueLimit: 200,
      enableKeepAlive: true,
    },
  };
}
