// The email channel: one message per submission to each confirmed address of the form.
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AppConfig } from '../../config/app-config.js';
import { Form } from '../../forms/form.entity.js';
import { storedFields } from '../../forms/forms.service.js';
import { SUBMISSION_CREATED } from '../outbox.js';
import type {
  AttemptOutcome,
  DeliveryToSend,
  NotificationChannel,
  SubmissionNotice,
} from '../notification-channel.js';
import { EmailRecipientsService } from './email-recipients.service.js';
import { storedAddresses } from '../../forms/notify-emails.js';
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

function refused(error: string, final: boolean): AttemptOutcome {
  return { ok: false, statusCode: null, error, durationMs: 0, final };
}

@Injectable()
export class EmailChannel implements NotificationChannel {
  readonly name = 'email' as const;

  constructor(
    @InjectRepository(Form) private readonly forms: Repository<Form>,
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
    if (delivery.event !== SUBMISSION_CREATED) {
      return refused(`Email does not carry ${delivery.event} events`, true);
    }
    if (!submission) return refused('The submission no longer exists', true);
    const form = await this.forms.findOne({
      where: { id: delivery.formId },
      select: {
        id: true,
        accountId: true,
        name: true,
        fields: true,
        notifyEmails: true,
      },
    });
    if (!form) return refused('The form no longer exists', true);
    const address = delivery.target;
    // Checked at every attempt: an address removed from the form, or an account deleted
    // and its confirmation with it, gets nothing more, even for older submissions.
    if (!storedAddresses(form.notifyEmails).includes(address)) {
      return refused(`${address} is no longer a recipient of this form`, true);
    }
    const confirmed = await this.recipients.confirmedAmong(form.accountId, [
      address,
    ]);
    if (!confirmed.has(address)) {
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
    return this.mailer.send({ to: address, ...mail }, signal);
  }
}
