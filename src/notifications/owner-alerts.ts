import { Injectable, Logger } from '@nestjs/common';
import type { OwnerAlerts } from './notification-channel.js';

/** The OwnerAlerts used while no mail is wired: the alert goes to the log. */
@Injectable()
export class LogOwnerAlerts implements OwnerAlerts {
  private readonly logger = new Logger('OwnerAlerts');

  alert(accountId: string, subject: string, text: string): Promise<void> {
    this.logger.warn(`Owner of account ${accountId}: ${subject} — ${text}`);
    return Promise.resolve();
  }
}
