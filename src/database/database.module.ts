import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '../config/app-config.js';
import { buildDataSourceOptions } from './database-options.js';
import { DatabaseStateService } from '../common/database/database-state.service.js';

@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
        ...buildDataSourceOptions(config.database, config.migrationsRun),
        // Connected in the background by DatabaseStateService, so the process starts
        // (not ready) even while the database is down.
        manualInitialization: true,
      }),
    }),
  ],
  providers: [DatabaseStateService],
  exports: [DatabaseStateService],
})
export class DatabaseModule {}
