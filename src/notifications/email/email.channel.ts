// The email channel: one message per submission to each confirmed address of the form.
import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config.js';
import { FormRepository } from '../../forms/form.repository.js';
import { storedFields } from '../../forms/settings/stored-fields.js';
import { SUBMISSION_CREATED } from '../outbox/outbox-entry.js';
import type {
  AttemptOutcome,
  ChannelItem,
  DeliveryToSend,
  NotificationChannel,
  PreparedAttempt,
  SubmissionNotice,
} from '../notification-channel.js';
import { EmailRecipientsService } from './email-recipients.service.js';
import { storedAddresses } from '../../forms/settings/notify-emails.js';
import { Mailer } from './mailer.js';
import { composeSubmissionMail } from './submission-mail.js';

/** The control values of a delivery's payload this channel reads. */
export function controlValuesOf(delivery: DeliveryToSend): {
  subject?: unknown;
  replyTo?: unknown;
} {
  const payload = delivery.payload ?? {};
  return { subject: payload._subject, replyTo: payload._replyto };
}

function refused(error: string, final: boolean): PreparedAttempt {
  const outcome: AttemptOutcome = {
    ok: false,
    statusCode: null,
    error,
    durationMs: 0,
    final,
  };
  return () => Promise.resolve(outcome);
}

@Injectable()
export class EmailChannel implements NotificationChannel {
  readonly name = 'email' as const;

  constructor(
    private readonly forms: FormRepository,
    private readonly recipients: EmailRecipientsService,
    private readonly mailer: Mailer,
    private readonly config: AppConfig,
  ) {}

  /** The form's confirmed addresses; none while mail is off. */
  async targetsFor(formId: string): Promise<string[]> {
    if (!this.mailer.enabled) return [];
    return this.recipients.confirmedTargets(formId);
  }

  async send(
    delivery: DeliveryToSend,
    submission: SubmissionNotice | null,
    signal: AbortSignal,
  ): Promise<AttemptOutcome> {
    const [attempt] = await this.prepare([{ delivery, submission }]);
    return attempt(signal);
  }

  async prepare(items: readonly ChannelItem[]): Promise<PreparedAttempt[]> {
    const formIds = [...new Set(items.map(({ delivery }) => delivery.formId))];
    const forms = await this.forms.forMail(formIds);
    // Checked at every attempt: an address removed from the form, or an account deleted
    // and its confirmation with it, gets nothing more, even for older submissions.
    const addressesByAccount = new Map<string, string[]>();
    for (const { delivery } of items) {
      const form = forms.get(delivery.formId);
      if (form === undefined) continue;
      const addresses = addressesByAccount.get(form.accountId) ?? [];
      addresses.push(delivery.target);
      addressesByAccount.set(form.accountId, addresses);
    }
    const confirmed = new Map<string, Set<string>>();
    for (const [accountId, addresses] of addressesByAccount) {
      confirmed.set(
        accountId,
        await this.recipients.confirmedAmong(accountId, addresses),
      );
    }
    return items.map(({ delivery, submission }) => {
      if (delivery.event !== SUBMISSION_CREATED) {
        return refused(`Email does not carry ${delivery.event} events`, true);
      }
      if (!submission) return refused('The submission no longer exists', true);
      const form = forms.get(delivery.formId);
      if (!form) return refused('The form no longer exists', true);
      const address = delivery.target;
      if (!storedAddresses(form.notifyEmails).includes(address)) {
        return refused(
          `${address} is no longer a recipient of this form`,
          true,
        );
      }
      if (!confirmed.get(form.accountId)?.has(address)) {
        return refused(`${address} has not confirmed`, true);
      }
      const mail = composeSubmissionMail({
        formId: form.id,
        formName: form.name,
        fields: storedFields(form.fields),
        submissionId: submission.id,
        createdAt: submission.createdAt,
        data: submission.data,
        publicUrl: this.config.publicUrl,
        ...controlValuesOf(delivery),
      });
      return (signal) => this.mailer.send({ to: address, ...mail }, signal);
    });
  }
}
