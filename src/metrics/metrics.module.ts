import { DynamicModule, Global, Module } from '@nestjs/common';
import { DatabaseStateService } from '../common/database/database-state.service.js';
import { AppConfig } from '../config/app-config.js';
import { MetricsServer } from './metrics-server.js';
import { Metrics } from './metrics.js';

/**
 * Makes `Metrics` injectable everywhere, so a feature counts without importing this
 * module. The server and the worker serve them on METRICS_PORT when it is set; a process
 * that only needs the registry (an operator command) passes `{ serve: false }`.
 */
@Global()
@Module({})
export class MetricsModule {
  static forRoot(options: { serve?: boolean } = {}): DynamicModule {
    const serve = options.serve ?? true;
    return {
      module: MetricsModule,
      providers: [
        {
          provide: Metrics,
          inject: [AppConfig, DatabaseStateService],
          useFactory: (config: AppConfig, database: DatabaseStateService) =>
            new Metrics({
              exposed: serve && config.telemetry.metricsPort !== undefined,
              databaseUp: () => database.ping(),
            }),
        },
        ...(serve ? [MetricsServer] : []),
      ],
      exports: [Metrics],
    };
  }
}
