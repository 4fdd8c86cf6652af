// What the dashboard shows of a form's email recipients (partials/recipients.eta): each
// address with its confirmation state (and why its link could not be sent, when it could
// not), and whether mail is configured at all.
import { Injectable } from '@nestjs/common';
import type { RecipientStatus } from './email-recipient.entity.js';
import { EmailRecipientsService } from './email-recipients.service.js';
import { Mailer } from './mailer.js';

export interface RecipientsSection {
  /** false when SMTP_URL and MAIL_FROM are unset: nothing is sent. */
  mailEnabled: boolean;
  recipients: Array<{
    address: string;
    status: RecipientStatus;
    /** Why the last confirmation mail could not be sent (pending addresses only). */
    sendError?: string;
  }>;
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
    const [status, sendErrors] = await Promise.all([
      this.recipients.statusOf(accountId, notifyEmails),
      this.recipients.sendErrorsAmong(accountId, notifyEmails),
    ]);
    return {
      mailEnabled: this.mailer.enabled,
      recipients: notifyEmails.map((address) => ({
        address,
        status: status[address],
        ...(status[address] === 'pending' && sendErrors.has(address)
          ? { sendError: sendErrors.get(address) }
          : {}),
      })),
    };
  }
}
