import { AuditModule } from '../audit/audit.module.js';
import { DashboardAuditController } from './account/dashboard-audit.controller.js';
import { DashboardLabelsController } from './account/dashboard-labels.controller.js';
import { LabelsPageBuilder } from './account/labels-page.builder.js';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccountsModule } from '../accounts/accounts.module.js';
import { DomainVerificationModule } from '../domain-verification/domain-verification.module.js';
import { ErasureModule } from '../erasure/erasure.module.js';
import { FilesModule } from '../files/files.module.js';
import { FormsModule } from '../forms/forms.module.js';
import { MembersModule } from '../members/members.module.js';
import { SsoModule } from '../sso/sso.module.js';
import { DashboardSsoController } from './account/dashboard-sso.controller.js';
import { SsoSignInController } from './session/sso-sign-in.controller.js';
import { NotificationsModule } from '../notifications/notifications.module.js';
import { SubmissionsModule } from '../submissions/submissions.module.js';
import { AccountSwitchController } from './account/account-switch.controller.js';
import { DashboardAccountController } from './account/dashboard-account.controller.js';
import { DashboardAuthController } from './session/dashboard-auth.controller.js';
import { DashboardRetentionController } from './forms/dashboard-retention.controller.js';
import { DashboardFormSettingsController } from './forms/dashboard-form-settings.controller.js';
import { DashboardFormsController } from './forms/dashboard-forms.controller.js';
import { FormPageBuilder } from './forms/form-page.builder.js';
import { FormSetupBuilder } from './forms/form-setup.builder.js';
import { FormSettingsPageBuilder } from './forms/form-settings-page.builder.js';
import { NotificationsPageBuilder } from './forms/notifications-page.builder.js';
import { DashboardNotificationsController } from './forms/dashboard-notifications.controller.js';
import { DashboardSpamController } from './forms/dashboard-spam.controller.js';
import { SpamPageBuilder } from './forms/spam-page.builder.js';
import { SpamModule } from '../spam/spam.module.js';
import { DashboardSession } from './session/dashboard-session.entity.js';
import { DashboardSessionRepository } from './session/dashboard-session.repository.js';
import { DashboardSessionsService } from './session/dashboard-sessions.service.js';
import { DashboardSubmissionsController } from './forms/dashboard-submissions.controller.js';
import { DashboardInboxController } from './forms/dashboard-inbox.controller.js';
import { SubmissionPageBuilder } from './forms/submission-page.builder.js';
import { DocsController } from './docs.controller.js';
import { RootController } from './root.controller.js';
import { ConfirmEmailController } from './confirm-email.controller.js';
import { AutoresponseUnsubscribeController } from './autoresponse-unsubscribe.controller.js';
import { DashboardChatChannelsController } from './forms/dashboard-chat-channels.controller.js';
import { DashboardAutoresponseController } from './forms/dashboard-autoresponse.controller.js';
import { VerifyEmailController } from './account/verify-email.controller.js';
import { DashboardMembersController } from './members/dashboard-members.controller.js';
import { InvitationPageBuilder } from './members/invitation-page.builder.js';
import { InvitationPageController } from './members/invitation-page.controller.js';
import { MembersPageBuilder } from './members/members-page.builder.js';
import {
  SignedInGuard,
  SignedOutCsrfGuard,
} from './session/dashboard.guards.js';
import { RateLimitStorageModule } from '../rate-limit/rate-limit-storage.module.js';
import { SignInLimiter } from './session/sign-in-limiter.js';
import { SignInAuditRecorder } from './session/sign-in-audit-recorder.js';
import { EmailNotificationsModule } from '../notifications/email/email-notifications.module.js';
import { SecondFactorsModule } from '../second-factors/second-factors.module.js';
import { SignInFlowService } from './session/sign-in-flow.service.js';
import { PendingSessionGuard } from './session/pending-session.guard.js';
import { SecondStepController } from './session/second-step.controller.js';
import { PasskeySignInController } from './session/passkey-sign-in.controller.js';
import { SecurityController } from './account/security.controller.js';
import { SessionsController } from './account/sessions.controller.js';

/** The server-rendered dashboard under /dashboard (templates in ./views, assets in ./public). */
@Module({
  imports: [
    SpamModule,
    TypeOrmModule.forFeature([DashboardSession]),
    AccountsModule,
    FormsModule,
    SubmissionsModule,
    DomainVerificationModule,
    NotificationsModule,
    ErasureModule,
    FilesModule,
    RateLimitStorageModule,
    EmailNotificationsModule,
    MembersModule,
    SecondFactorsModule,
    SsoModule,
    AuditModule,
  ],
  controllers: [
    DashboardAuthController,
    DashboardFormsController,
    DashboardFormSettingsController,
    DashboardRetentionController,
    DashboardInboxController,
    DashboardSubmissionsController,
    DashboardNotificationsController,
    DashboardSpamController,
    DashboardAccountController,
    AccountSwitchController,
    RootController,
    DocsController,
    ConfirmEmailController,
    AutoresponseUnsubscribeController,
    DashboardChatChannelsController,
    DashboardAutoresponseController,
    VerifyEmailController,
    DashboardMembersController,
    InvitationPageController,
    SecondStepController,
    PasskeySignInController,
    SecurityController,
    SessionsController,
    DashboardSsoController,
    SsoSignInController,
    DashboardAuditController,
    DashboardLabelsController,
  ],
  providers: [
    DashboardSessionRepository,
    DashboardSessionsService,
    FormPageBuilder,
    FormSetupBuilder,
    SubmissionPageBuilder,
    FormSettingsPageBuilder,
    NotificationsPageBuilder,
    SpamPageBuilder,
    MembersPageBuilder,
    InvitationPageBuilder,
    LabelsPageBuilder,
    SignInLimiter,
    SignInAuditRecorder,
    SignedInGuard,
    SignedOutCsrfGuard,
    SignInFlowService,
    PendingSessionGuard,
  ],
})
export class DashboardModule {}
