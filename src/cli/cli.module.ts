import { DynamicModule, Module } from '@nestjs/common';
import { AuditLogModule } from '../audit/audit-log.module.js';
import { AccountsModule } from '../accounts/accounts.module.js';
import { SecondFactorsModule } from '../second-factors/second-factors.module.js';
import { AppConfig } from '../config/app-config.js';
import { ConfigModule } from '../config/config.module.js';
import { DatabaseModule } from '../database/database.module.js';
import { MetricsModule } from '../metrics/metrics.module.js';
import { TracingModule } from '../tracing/tracing.module.js';
import { SweepsModule } from '../sweeps/sweeps.module.js';
import { FormCounterRepository } from '../submissions/counters/form-counter.repository.js';
import { SearchIndexModule } from '../submissions/search/search-index.module.js';
import { FormRepositoryModule } from '../forms/form-repository.module.js';

/** Just what the operator commands need: configuration, the database, accounts, second factors, the counters and the search index. */
@Module({})
export class CliModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: CliModule,
      imports: [
        ConfigModule.forRoot(config),
        DatabaseModule,
        // What features count and trace goes nowhere: a command serves no metrics.
        TracingModule,
        MetricsModule.forRoot({ serve: false }),
        // Features may register sweeps; a command never runs them.
        SweepsModule.forRoot({ schedule: false }),
        AuditLogModule,
        AccountsModule,
        // counters:rebuild (every form, through its repository) and search:rebuild.
        FormRepositoryModule,
        SearchIndexModule,
        SecondFactorsModule,
      ],
      providers: [FormCounterRepository],
    };
  }
}
