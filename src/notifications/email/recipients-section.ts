// What the dashboard shows of a form's email recipients (partials/recipients.eta): each
// address with its confirmation state, and whether mail is configured at all.
import { Injectable } from '@nestjs/common';
import type { RecipientStatus } from './email-recipient.entity.js';
import { EmailRecipientsService } from './email-recipients.service.js';
import { Mailer } from './mailer.js';

export interface RecipientsSection {
  /** false when SMTP_URL and MAIL_FROM are unset: nothing is sent. */
  mailEnabled: boolean;
  recipients: Array<{ address: string; status: RecipientStatus }>;
}

@Injectable()
export class RecipientsSectionBuilder {
  constructor(
    private readonly recipients: EmailRecipientsService,
    private readonly mailer: Mailer,
  ) {}

  async build(
    accountId: string,
    notifyEmails: readonly string[],
  ): Promise<RecipientsSection> {
    const status = await this.recipients.statusOf(accountId, notifyEmails);
    return {
      mailEnabled: this.mailer.enabled,
      recipients: notifyEmails.map((address) => ({
        address,
        status: status[address],
      })),
    };
  }
}
