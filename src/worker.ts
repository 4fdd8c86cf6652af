// `npm run worker`: the notification worker alone, without HTTP. Any number may run beside
// the servers (which can then set WORKER_ENABLED=false) on MySQL/MariaDB; they share the
// work through leases. It runs the background sweeps of its modules too (docs/sweeps.md).
// SIGTERM lets sends in flight finish.
import 'reflect-metadata';
import { Module, type DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AccountsModule } from './accounts/accounts.module.js';
import { AuthModule } from './auth/auth.module.js';
import { DatabaseStateService } from './common/database/database-state.service.js';
import {
  UNKNOWN_MIGRATIONS_EXIT_CODE,
  UnknownMigrationsError,
} from './common/database/unknown-migrations.js';
import { createLogger, PinoNestLogger } from './common/logging/logger.js';
import { logDestination } from './common/logging/log-destination.js';
import {
  ConfigError,
  loadConfig,
  type AppConfig,
} from './config/app-config.js';
import { ConfigModule } from './config/config.module.js';
import { withEnvFile } from './config/env-file.js';
import { DatabaseModule } from './database/database.module.js';
import { AuditLogModule } from './audit/audit-log.module.js';
import { DomainVerificationCoreModule } from './domain-verification/domain-verification-core.module.js';
import { FormsModule } from './forms/forms.module.js';
import { MetricsModule } from './metrics/metrics.module.js';
import { NotificationsModule } from './notifications/notifications.module.js';
import { SubmissionDeletionModule } from './submissions/deletion/submission-deletion.module.js';
import { SearchIndexModule } from './submissions/search/search-index.module.js';
import { SweepsModule } from './sweeps/sweeps.module.js';
import { TracingModule } from './tracing/tracing.module.js';

@Module({})
class WorkerModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: WorkerModule,
      imports: [
        ConfigModule.forRoot(config),
        DatabaseModule,
        // Deliveries and sweeps are counted and traced here as in the server; the
        // metrics are served on this process's METRICS_PORT.
        TracingModule,
        MetricsModule.forRoot(),
        // The background sweeps of the modules below run here as in the server.
        SweepsModule.forRoot(),
        // What the changes made here record their audit events with.
        AuditLogModule,
        AuthModule.forRoot([FormsModule, AccountsModule]),
        // FormsService (which the notifications use) shows its warning from here.
        DomainVerificationCoreModule,
        // The deletion path the notifications register their deliveries with.
        SubmissionDeletionModule,
        SearchIndexModule,
        NotificationsModule,
      ],
    };
  }
}

let config: AppConfig;
try {
  // Running the worker is the point of this process, whatever WORKER_ENABLED says.
  config = loadConfig(withEnvFile(process.env).env);
  config.workerEnabled = true;
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exit(1);
}
const logger = createLogger(
  config.logLevel,
  await logDestination(config.logFormat),
);
const context = await NestFactory.createApplicationContext(
  WorkerModule.forRoot(config),
  { logger: new PinoNestLogger(logger), abortOnError: false },
);
context.enableShutdownHooks(['SIGTERM', 'SIGINT']);
logger.info(
  `Notification worker started (${config.workerConcurrency} at once)`,
);
// A database a newer release migrated is refused (the log names the migrations): this build
// must not deliver from it.
context
  .get(DatabaseStateService)
  .whenConnected()
  .catch(async (error: unknown) => {
    if (!(error instanceof UnknownMigrationsError)) return;
    await context.close();
    process.exit(UNKNOWN_MIGRATIONS_EXIT_CODE);
  });
