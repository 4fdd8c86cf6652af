import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { AccountKeysModule } from './accounts/account-keys.module.js';
import { AccountsModule } from './accounts/accounts.module.js';
import { AuditLogModule } from './audit/audit-log.module.js';
import { AuditModule } from './audit/audit.module.js';
import { AuthModule } from './auth/auth.module.js';
import { AllExceptionsFilter } from './common/errors/all-exceptions.filter.js';
import {
  ERROR_ANSWER_WRITERS,
  type ErrorAnswerWriter,
} from './common/errors/error-answer.js';
import { AppValidationPipe } from './common/http/validation.pipe.js';
import { AppConfig } from './config/app-config.js';
import { ConfigModule } from './config/config.module.js';
import { DashboardModule } from './dashboard/dashboard.module.js';
import { DatabaseModule } from './database/database.module.js';
import { ErasureModule } from './erasure/erasure.module.js';
import { DomainVerificationModule } from './domain-verification/domain-verification.module.js';
import { FilesModule } from './files/files.module.js';
import { FormsModule } from './forms/forms.module.js';
import { IdempotencyModule } from './idempotency/idempotency.module.js';
import { MembersModule } from './members/members.module.js';
import { HealthModule } from './health/health.module.js';
import { MetricsModule } from './metrics/metrics.module.js';
import { NotificationsModule } from './notifications/notifications.module.js';
import { SubmissionDeletionModule } from './submissions/deletion/submission-deletion.module.js';
import { SearchIndexModule } from './submissions/search/search-index.module.js';
import { SubmissionsModule } from './submissions/submissions.module.js';
import { submitErrorAnswers } from './submit/submit-answer.js';
import { SubmitModule } from './submit/submit.module.js';
import { SweepsModule } from './sweeps/sweeps.module.js';
import { TracingModule } from './tracing/tracing.module.js';

/**
 * The routes that answer their failures their own way (common/errors/error-answer.ts): the
 * exception filter and Fastify's framework errors (app.setup.ts) both ask these.
 */
export const ERROR_WRITERS: readonly ErrorAnswerWriter[] = [submitErrorAnswers];

@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        DatabaseModule,
        TracingModule,
        MetricsModule.forRoot(),
        SweepsModule.forRoot(),
        IdempotencyModule,
        AuditLogModule,
        AuditModule,
        AuthModule.forRoot([FormsModule, AccountsModule]),
        AccountsModule,
        AccountKeysModule,
        FormsModule,
        SubmitModule,
        SubmissionDeletionModule,
        SearchIndexModule,
        SubmissionsModule,
        FilesModule,
        DomainVerificationModule,
        NotificationsModule,
        ErasureModule,
        MembersModule,
        DashboardModule,
        HealthModule,
      ],
      providers: [
        {
          provide: ERROR_ANSWER_WRITERS,
          useValue: ERROR_WRITERS,
        },
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
        { provide: APP_PIPE, useClass: AppValidationPipe },
      ],
    };
  }
}
