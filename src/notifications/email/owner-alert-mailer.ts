// Tells an account's owners about something that needs them (a webhook disabled after days
// of failures, say): a message to each owner's address when mail is on and that owner
// verified it, a warning in the log otherwise. The message is the service's own
// words around ids, a time and a dashboard link: nothing an owner or a visitor wrote (no
// form name, no webhook URL), so it cannot carry anyone's text to the inbox it reaches.
// Never throws: an alert that cannot go out is logged instead.
import { Injectable, Logger } from '@nestjs/common';
import { UserRepository } from '../../accounts/user.repository.js';
import { isEmailAddress } from '../../common/values/email-address.js';
import { AppConfig } from '../../config/app-config.js';
import type { OwnerAlert, OwnerAlerts } from '../notification-channel.js';
import { escapeHtml } from './mail-text.js';
import { Mailer } from './mailer.js';
import type { ComposedMail } from './submission-mail.js';

/** The alert's message: fixed words, ids, a time and a link to the dashboard. */
export function composeOwnerAlert(
  publicUrl: string,
  alert: OwnerAlert,
): ComposedMail {
  const page = `${publicUrl}/dashboard/forms/${encodeURIComponent(alert.formId)}/notifications`;
  const paragraphs = [
    `Every delivery to the webhook ${alert.webhookId} of your form ${alert.formId} has failed since ${alert.since.toISOString()}, so it was turned off.`,
    `Fix the endpoint, then turn the webhook on again on the form's Notifications page (failed deliveries can be retried from its delivery log):`,
    page,
    `Or by API: PATCH /api/v1/forms/${alert.formId}/webhooks/${alert.webhookId} {"enabled": true}`,
  ];
  return {
    subject: 'Formgate: a webhook was turned off',
    text: `${paragraphs.join('\n\n')}\n`,
    html: [
      '<!doctype html>',
      '<html><body style="font-family:sans-serif">',
      `<p>${escapeHtml(paragraphs[0])}</p>`,
      `<p>${escapeHtml(paragraphs[1])}</p>`,
      `<p><a href="${escapeHtml(page)}">${escapeHtml(page)}</a></p>`,
      `<p>${escapeHtml(paragraphs[3])}</p>`,
      '</body></html>',
      '',
    ].join('\n'),
  };
}

@Injectable()
export class OwnerAlertMailer implements OwnerAlerts {
  private readonly logger = new Logger('OwnerAlerts');

  constructor(
    private readonly users: UserRepository,
    private readonly mailer: Mailer,
    private readonly config: AppConfig,
  ) {}

  async alert(accountId: string, alert: OwnerAlert): Promise<void> {
    const mail = composeOwnerAlert(this.config.publicUrl, alert);
    const line = `${mail.subject}: ${mail.text.trim().replace(/\s+/g, ' ')}`;
    if (!this.mailer.enabled) {
      this.logger.warn(`For the owner of account ${accountId}: ${line}`);
      return;
    }
    try {
      const owners = await this.users.ownersOf(accountId);
      // Only an address its owner verified is mailed (the dashboard says so); sign-up
      // accepts a looser address than a message header can carry safely.
      const mailable = owners.filter(
        (owner) => owner.emailVerifiedAt && isEmailAddress(owner.email),
      );
      if (mailable.length === 0) {
        const why = owners.some((owner) => owner.emailVerifiedAt)
          ? 'cannot be mailed'
          : 'is not verified, so it is not mailed';
        const whose =
          owners.length > 1
            ? `Each owner's address of account ${accountId}`
            : `The address of account ${accountId}`;
        this.logger.warn(`${whose} ${why}: ${line}`);
        return;
      }
      for (const owner of mailable) {
        const result = await this.mailer.send({ to: owner.email, ...mail });
        if (!result.ok) {
          this.logger.warn(
            `Could not email owner ${owner.id} of account ${accountId} (${result.error}): ${line}`,
          );
        }
      }
    } catch (error) {
      this.logger.warn(
        `Could not email the owner of account ${accountId} (${(error as Error).message}): ${line}`,
      );
    }
  }
}
