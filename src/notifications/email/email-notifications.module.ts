import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccountRepositoriesModule } from '../../accounts/account-repositories.module.js';
import { FormChangesModule } from '../../forms/changes/form-changes.module.js';
import { FormRepositoryModule } from '../../forms/form-repository.module.js';
import { NOTIFY_EMAIL_CONFIRMATIONS } from '../../forms/settings/notify-emails.js';
import { OWNER_ALERTS } from '../notification-channel.js';
import { AccountVerificationService } from './account-verification.service.js';
import { ASSIGNMENT_MAIL } from '../../submissions/inbox/assignment-mail.js';
import { AssignmentMailer } from './assignment-mail.js';
import { EmailChannel } from './email.channel.js';
import { EmailRecipient } from './email-recipient.entity.js';
import { EmailRecipientRepository } from './email-recipient.repository.js';
import { EmailRecipientsService } from './email-recipients.service.js';
import { Mailer } from './mailer.js';
import { MailQuotaLimiter } from './mail-quota-limiter.js';
import { MailQuotaRepository } from './mail-quota.repository.js';
import { MailQuotaSweep } from './mail-quota-sweep.js';
import { OwnerAlertMailer } from './owner-alert-mailer.js';
import { RecipientsSectionBuilder } from './recipients-section.js';

/**
 * Email over SMTP: the channel that mails confirmed recipients, their double opt-in (the
 * confirmation links; the page they open is the dashboard's ConfirmEmailController),
 * owner alerts, and the dashboard's recipients section.
 * Global, because FormsService reads and requests confirmations through
 * NOTIFY_EMAIL_CONFIRMATIONS without importing this feature.
 */
@Global()
@Module({
  imports: [
    TypeOrmModule.forFeature([EmailRecipient]),
    AccountRepositoriesModule,
    FormRepositoryModule,
    FormChangesModule,
  ],
  providers: [
    Mailer,
    MailQuotaRepository,
    MailQuotaLimiter,
    EmailRecipientRepository,
    MailQuotaSweep,
    EmailRecipientsService,
    AccountVerificationService,
    EmailChannel,
    RecipientsSectionBuilder,
    OwnerAlertMailer,
    { provide: OWNER_ALERTS, useExisting: OwnerAlertMailer },
    AssignmentMailer,
    { provide: ASSIGNMENT_MAIL, useExisting: AssignmentMailer },
    {
      provide: NOTIFY_EMAIL_CONFIRMATIONS,
      useExisting: EmailRecipientsService,
    },
  ],
  exports: [
    EmailChannel,
    EmailRecipientsService,
    NOTIFY_EMAIL_CONFIRMATIONS,
    RecipientsSectionBuilder,
    OWNER_ALERTS,
    OwnerAlertMailer,
    Mailer,
    MailQuotaLimiter,
    AccountVerificationService,
    AssignmentMailer,
    ASSIGNMENT_MAIL,
  ],
})
export class EmailNotificationsModule {}
