// Tells an account owner about something that needs them (a webhook disabled after days
// of failures, say): a message to the account's own address when mail is on and the owner
// verified that address, a warning in the log otherwise. Never throws: an alert that cannot go out is logged instead.
import { Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { Account } from '../../accounts/account.entity.js';
import { isEmailAddress } from '../../common/email-address.js';
import type { OwnerAlerts } from '../notification-channel.js';
import { escapeHtml, headerText } from './mail-text.js';
import { Mailer } from './mailer.js';
import { MAX_SUBJECT_LENGTH } from './submission-mail.js';

@Injectable()
export class MailOwnerAlerts implements OwnerAlerts {
  private readonly logger = new Logger('OwnerAlerts');

  constructor(
    @InjectRepository(Account) private readonly accounts: Repository<Account>,
    private readonly mailer: Mailer,
  ) {}

  async alert(accountId: string, subject: string, text: string): Promise<void> {
    const line = `${headerText(subject, MAX_SUBJECT_LENGTH)}: ${text}`;
    if (!this.mailer.enabled) {
      this.logger.warn(`For the owner of account ${accountId}: ${line}`);
      return;
    }
    try {
      const account = await this.accounts.findOne({
        where: { id: accountId },
        select: { id: true, email: true, emailVerifiedAt: true },
      });
      if (!account) return;
      // Only an address its owner verified is mailed (the dashboard says so).
      if (!account.emailVerifiedAt) {
        this.logger.warn(
          `The address of account ${accountId} is not verified, so it is not mailed: ${line}`,
        );
        return;
      }
      // Sign-up accepts a looser address than a message header can carry safely.
      if (!isEmailAddress(account.email)) {
        this.logger.warn(
          `The address of account ${accountId} cannot be mailed: ${line}`,
        );
        return;
      }
      const result = await this.mailer.send({
        to: account.email,
        subject: headerText(`Formgate: ${subject}`, MAX_SUBJECT_LENGTH),
        text: `${text}\n`,
        html: `<!doctype html>\n<html><body style="font-family:sans-serif"><p style="white-space:pre-wrap">${escapeHtml(text)}</p></body></html>\n`,
      });
      if (!result.ok) {
        this.logger.warn(
          `Could not email the owner of account ${accountId} (${result.error}): ${line}`,
        );
      }
    } catch (error) {
      this.logger.warn(
        `Could not email the owner of account ${accountId} (${(error as Error).message}): ${line}`,
      );
    }
  }
}
