// Double opt-in for notification addresses. An address listed by a form of an account is
// sent one confirmation link; until its owner confirms, it receives nothing else. At most
// one link goes to an address per account per week (a new one only once the last has
// expired), so saving a form again and again mails no one. Every link is first reserved
// from the caps (MailQuotaLimiter): 30 a day per account, and per address across all accounts
// 3 a day and none for 30 days after 3 went unanswered.
import {
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
} from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import { AppConfig } from '../../config/app-config.js';
import { FormChangesService } from '../../forms/changes/form-changes.service.js';
import { FormRepository } from '../../forms/form.repository.js';
import {
  storedAddresses,
  type NotifyEmailConfirmations,
} from '../../forms/settings/notify-emails.js';
import { composeConfirmationMail } from './confirmation-mail.js';
import type {
  EmailRecipient,
  RecipientStatus,
} from './email-recipient.entity.js';
import { EmailRecipientRepository } from './email-recipient.repository.js';
import { Mailer } from './mailer.js';
import {
  MAX_CONFIRMATIONS_PER_DAY,
  MailQuotaLimiter,
  accountRule,
  addressRule,
} from './mail-quota-limiter.js';
import { isUniqueViolation } from '../../common/database/driver-errors.js';
import { newUlid } from '../../common/values/ulid.js';

export const CONFIRMATION_VALID_DAYS = 7;
const DAY_MS = 24 * 60 * 60 * 1000;
const CONFIRMATION_VALID_MS = CONFIRMATION_VALID_DAYS * DAY_MS;
export { MAX_CONFIRMATIONS_PER_DAY };
/** 32 random bytes in base64url. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export type ConfirmationState = 'unknown' | 'expired' | 'pending' | 'confirmed';

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

@Injectable()
export class EmailRecipientsService
  implements NotifyEmailConfirmations, BeforeApplicationShutdown
{
  private readonly logger = new Logger('EmailRecipients');
  private readonly sending = new Set<Promise<void>>();

  constructor(
    private readonly recipients: EmailRecipientRepository,
    private readonly forms: FormRepository,
    private readonly mailer: Mailer,
    private readonly changes: FormChangesService,
    private readonly config: AppConfig,
    private readonly quotas: MailQuotaLimiter,
  ) {}

  /** The state of each address for this account: confirmed, or pending (also when unknown). */
  async statusOf(
    accountId: string,
    addresses: readonly string[],
  ): Promise<Record<string, RecipientStatus>> {
    const confirmed = await this.confirmedAmong(accountId, addresses);
    return Object.fromEntries(
      addresses.map((address) => [
        address,
        confirmed.has(address) ? 'confirmed' : 'pending',
      ]),
    );
  }

  async confirmedAmong(
    accountId: string,
    addresses: readonly string[],
  ): Promise<Set<string>> {
    if (addresses.length === 0) return new Set();
    const unique = [...new Set(addresses)];
    return new Set(await this.recipients.confirmedAmong(accountId, unique));
  }

  /**
   * The account's addresses among `addresses` whose last confirmation mail could not be
   * sent, with the reason (the SMTP server's answer or the connection's failure).
   */
  async sendErrorsAmong(
    accountId: string,
    addresses: readonly string[],
  ): Promise<Map<string, string>> {
    if (addresses.length === 0) return new Map();
    const unique = [...new Set(addresses)];
    const rows = await this.recipients.sendErrorsAmong(accountId, unique);
    return new Map(rows.map((row) => [row.address, row.lastError!]));
  }

  /** A form's addresses that have confirmed, in the form's order. */
  async confirmedTargets(formId: string): Promise<string[]> {
    const form = await this.forms.addresses(formId);
    if (!form) return [];
    const listed = storedAddresses(form.notifyEmails);
    const confirmed = await this.confirmedAmong(form.accountId, listed);
    return listed.filter((address) => confirmed.has(address));
  }

  /**
   * After a form's addresses were written: each address new to the account, and each
   * pending one whose last link has expired (or was never sent), is sent a link.
   * Returns at once; the mail goes out in the background (see settled()).
   */
  async requestConfirmations(
    accountId: string,
    addresses: readonly string[],
  ): Promise<void> {
    if (addresses.length === 0) return;
    const unique = [...new Set(addresses)];
    const known = await this.recipients.known(accountId, unique);
    const knownAddresses = new Set(known.map((row) => row.address));
    const now = new Date();
    // Pending, and never sent a link or the last one expired: may be sent one now.
    const candidates = known.filter(
      (row) =>
        row.status === 'pending' &&
        (row.tokenExpiresAt === null || row.tokenExpiresAt <= now),
    );
    for (const address of unique) {
      if (knownAddresses.has(address)) continue;
      const row = this.recipients.create({
        id: newUlid(),
        accountId,
        address,
        status: 'pending',
        tokenHash: null,
        tokenExpiresAt: null,
        confirmedAt: null,
        lastError: null,
        lastErrorAt: null,
      });
      try {
        await this.recipients.insert(row);
        candidates.push(row);
      } catch (error) {
        // Added by a request racing this one: that request sends the link.
        if (!isUniqueViolation(error)) throw error;
      }
    }
    if (!this.mailer.enabled || candidates.length === 0) return;
    for (const row of candidates) {
      const token = randomBytes(32).toString('base64url');
      if (!(await this.claimSending(row.id, hashToken(token)))) continue;
      const reserved = await this.quotas.reserve([
        accountRule(accountId),
        addressRule(row.address),
      ]);
      if (reserved.ok) {
        this.track(this.sendConfirmation(row, token));
        continue;
      }
      // Not sent: the row waits, as if never sent, for a later save.
      await this.recipients.dropLink(row.id, hashToken(token));
      if (reserved.refusedBy.subject.startsWith('account:')) {
        this.logger.warn(
          `Account ${accountId} had ${MAX_CONFIRMATIONS_PER_DAY} confirmation links sent today: ${row.address} gets its link on a later save`,
        );
        continue;
      }
      this.logger.warn(
        `${row.address} was sent as many confirmation links as it may receive for now: it gets one on a later save`,
      );
    }
  }

  /** What a confirmation link stands for, without changing anything. */
  async stateOf(token: string): Promise<ConfirmationState> {
    const row = await this.findByToken(token);
    if (!row) return 'unknown';
    if (row.status === 'confirmed') return 'confirmed';
    return row.tokenExpiresAt && row.tokenExpiresAt > new Date()
      ? 'pending'
      : 'expired';
  }

  /**
   * Whom a valid link is about: its address and the names of the account's forms that list
   * it (shown on the confirmation page, so the person knows what they agree to).
   */
  async subjectOf(
    token: string,
  ): Promise<{ address: string; forms: string[] } | null> {
    const row = await this.findByToken(token);
    if (!row) return null;
    // Newest first from the repository; shown oldest first.
    const forms = await this.forms.listInAccount(row.accountId);
    return {
      address: row.address,
      forms: forms
        .filter((form) =>
          storedAddresses(form.notifyEmails).includes(row.address),
        )
        .map((form) => form.name)
        .reverse(),
    };
  }

  /** Confirms the address of a valid link for every form of its account. */
  async confirm(token: string): Promise<ConfirmationState> {
    const row = await this.findByToken(token);
    if (!row) return 'unknown';
    if (row.status === 'confirmed') return 'confirmed';
    const now = new Date();
    if (!row.tokenExpiresAt || row.tokenExpiresAt <= now) return 'expired';
    if (await this.recipients.confirm(row.id, row.tokenHash!, now)) {
      await this.quotas.answered(row.address);
      await this.announce(row.accountId, row.address);
    }
    return 'confirmed';
  }

  /** Resolves once every confirmation mail started so far has been handed over (or failed). */
  async settled(): Promise<void> {
    while (this.sending.size > 0) await Promise.allSettled(this.sending);
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.settled();
  }

  private findByToken(token: string): Promise<EmailRecipient | null> {
    if (!TOKEN_PATTERN.test(token)) return Promise.resolve(null);
    return this.recipients.findByTokenHash(hashToken(token));
  }

  /**
   * Takes the right to mail this address now: only one request wins, and only when no
   * link was sent yet or the last one has expired.
   */
  private claimSending(id: string, tokenHash: string): Promise<boolean> {
    const now = new Date();
    return this.recipients.claimSending(
      id,
      tokenHash,
      now,
      new Date(now.getTime() + CONFIRMATION_VALID_MS),
    );
  }

  private async sendConfirmation(
    row: EmailRecipient,
    token: string,
  ): Promise<void> {
    const mail = composeConfirmationMail(
      this.config.publicUrl,
      token,
      CONFIRMATION_VALID_DAYS,
    );
    const result = await this.mailer.send({ to: row.address, ...mail });
    if (result.ok) {
      if (row.lastError) {
        await this.recipients.clearSendError(row.id);
      }
      return;
    }
    this.logger.warn(
      `Could not send the confirmation link to ${row.address}: ${result.error}`,
    );
    // Nothing went out: the owner sees why (API and dashboard), and the next save of a form
    // listing the address tries again.
    try {
      await this.recipients.recordSendError(
        row.id,
        hashToken(token),
        (result.error ?? 'The message could not be sent').slice(0, 500),
        new Date(),
      );
    } catch (error) {
      this.logger.warn(
        `Could not reset the confirmation of ${row.address}: ${(error as Error).message}`,
      );
    }
  }

  /** The forms that list the address may now send to it: their cached targets must go. */
  private async announce(accountId: string, address: string): Promise<void> {
    const forms = await this.forms.addressesInAccount(accountId);
    for (const form of forms) {
      if (storedAddresses(form.notifyEmails).includes(address)) {
        this.changes.changed(form.id);
      }
    }
  }

  private track(work: Promise<void>): void {
    const tracked = work.catch((error: unknown) =>
      this.logger.error(
        `Confirmation mail failed: ${(error as Error).message}`,
      ),
    );
    this.sending.add(tracked);
    void tracked.finally(() => this.sending.delete(tracked));
  }
}
