import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccountsModule } from '../accounts/accounts.module.js';
import { DomainVerificationModule } from '../domain-verification/domain-verification.module.js';
import { FormsModule } from '../forms/forms.module.js';
import { SubmissionsModule } from '../submissions/submissions.module.js';
import { DashboardAuthController } from './dashboard-auth.controller.js';
import { DashboardSession } from './dashboard-session.entity.js';
import { DashboardSessionsService } from './dashboard-sessions.service.js';
import { SignedInGuard, SignedOutCsrfGuard } from './dashboard.guards.js';
import { SignInThrottle } from './sign-in-throttle.js';

/** The server-rendered dashboard under /dashboard (templates in ./views, assets in ./public). */
@Module({
  imports: [
    TypeOrmModule.forFeature([DashboardSession]),
    AccountsModule,
    FormsModule,
    SubmissionsModule,
    DomainVerificationModule,
  ],
  controllers: [DashboardAuthController],
  providers: [
    DashboardSessionsService,
    SignInThrottle,
    SignedInGuard,
    SignedOutCsrfGuard,
  ],
})
export class DashboardModule {}
