// The caps on confirmation mail, reserved atomically on MySQL/MariaDB and SQLite alike:
// a mail is sent only after every cap it falls under granted it (one conditional UPDATE
// each, see MailQuotaSql); when a later cap refuses, the earlier ones are given back.
import { Injectable } from '@nestjs/common';
import type { QuotaRule } from './mail-quota-sql.js';
import { MailQuotaRepository } from './mail-quota.repository.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Confirmation links one account may have sent in a UTC day. An account holds up to 10
 * addresses in each of up to 1,000 forms: without a cap it could have thousands of
 * strangers mailed at once. Addresses beyond it get their link on a later save.
 */
export const MAX_CONFIRMATIONS_PER_DAY = 30;
/** Confirmation mails one address receives in a UTC day, whichever accounts ask. */
export const MAX_ADDRESS_MAILS_PER_DAY = 3;
/** Unanswered confirmation mails after which an address is left alone … */
export const MAX_UNANSWERED = 3;
/** … for this many days after the last of them. */
export const QUIET_DAYS = 30;

export function accountRule(accountId: string): QuotaRule {
  return {
    subject: `account:${accountId}`,
    perDay: MAX_CONFIRMATIONS_PER_DAY,
    maxUnanswered: Number.MAX_SAFE_INTEGER,
    quietMs: 0,
  };
}

export function addressRule(address: string): QuotaRule {
  return {
    subject: `address:${address.toLowerCase()}`,
    perDay: MAX_ADDRESS_MAILS_PER_DAY,
    maxUnanswered: MAX_UNANSWERED,
    quietMs: QUIET_DAYS * DAY_MS,
  };
}

/** What a reservation got: the rule that refused, when one did. */
export type Reservation = { ok: true } | { ok: false; refusedBy: QuotaRule };

@Injectable()
export class MailQuotaLimiter {
  constructor(private readonly quotas: MailQuotaRepository) {}

  /** Takes one mail of every rule, in order, or of none. */
  async reserve(
    rules: readonly QuotaRule[],
    now = new Date(),
  ): Promise<Reservation> {
    const taken: QuotaRule[] = [];
    for (const rule of rules) {
      if (await this.take(rule, now)) {
        taken.push(rule);
        continue;
      }
      for (const done of taken) await this.release(done, now);
      return { ok: false, refusedBy: rule };
    }
    return { ok: true };
  }

  /** Gives back one mail reserved today (it was not sent after all). */
  async release(rule: QuotaRule, now = new Date()): Promise<void> {
    await this.quotas.release(rule.subject, now);
  }

  /** The address confirmed (a link, or its account's verification): it may be asked again. */
  async answered(address: string): Promise<void> {
    await this.quotas.answered(addressRule(address).subject);
  }

  /**
   * One mail of the rule, from a row made first if missing. A refusal is tried once more
   * from a fresh row: the sweep may have deleted an outlived row between the two.
   */
  private async take(rule: QuotaRule, now: Date): Promise<boolean> {
    for (let attempt = 0; attempt < 2; attempt++) {
      await this.quotas.ensure(rule.subject);
      if (await this.quotas.reserve(rule, now)) return true;
    }
    return false;
  }
}
