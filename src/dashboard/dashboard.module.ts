import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccountsModule } from '../accounts/accounts.module.js';
import { DomainVerificationModule } from '../domain-verification/domain-verification.module.js';
import { FormsModule } from '../forms/forms.module.js';
import { NotificationsModule } from '../notifications/notifications.module.js';
import { SubmissionsModule } from '../submissions/submissions.module.js';
import { DashboardAccountController } from './dashboard-account.controller.js';
import { DashboardAuthController } from './dashboard-auth.controller.js';
import { DashboardFormSettingsController } from './dashboard-form-settings.controller.js';
import { DashboardFormsController } from './dashboard-forms.controller.js';
import { DashboardNotificationsController } from './dashboard-notifications.controller.js';
import { DashboardSession } from './dashboard-session.entity.js';
import { DashboardSessionsService } from './dashboard-sessions.service.js';
import { DashboardSubmissionsController } from './dashboard-submissions.controller.js';
import { RootController } from './root.controller.js';
import { SignedInGuard, SignedOutCsrfGuard } from './dashboard.guards.js';
import { RateLimitStorageModule } from '../rate-limit/rate-limit-storage.module.js';
import { SignInLimits } from './sign-in-limits.js';
import { EmailNotificationsModule } from '../notifications/email/email-notifications.module.js';

/** The server-rendered dashboard under /dashboard (templates in ./views, assets in ./public). */
@Module({
  imports: [
    TypeOrmModule.forFeature([DashboardSession]),
    AccountsModule,
    FormsModule,
    SubmissionsModule,
    DomainVerificationModule,
    NotificationsModule,
    RateLimitStorageModule,
    EmailNotificationsModule,
  ],
  controllers: [
    DashboardAuthController,
    DashboardFormsController,
    DashboardFormSettingsController,
    DashboardSubmissionsController,
    DashboardNotificationsController,
    DashboardAccountController,
    RootController,
  ],
  providers: [
    DashboardSessionsService,
    SignInLimits,
    SignedInGuard,
    SignedOutCsrfGuard,
  ],
})
export class DashboardModule {}
