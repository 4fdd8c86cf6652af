// Every statement on email_recipient, the double opt-in of notification addresses: which
// of an account's addresses confirmed, the link each is sent (claimed by one conditional
// UPDATE, so two saves send one link), its confirmation, and why a link could not be sent.
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import {
  In,
  IsNull,
  LessThanOrEqual,
  Not,
  Repository,
  type FindOperator,
} from 'typeorm';
import { EmailRecipient } from './email-recipient.entity.js';

/** More addresses than this are matched against all the account's rows at once. */
const MAX_IN_LIST = 500;

/** Only the listed addresses, unless there are too many for one IN list. */
function among(addresses: readonly string[]): {
  address?: FindOperator<string>;
} {
  return addresses.length <= MAX_IN_LIST ? { address: In([...addresses]) } : {};
}

@Injectable()
export class EmailRecipientRepository {
  constructor(
    @InjectRepository(EmailRecipient)
    private readonly recipients: Repository<EmailRecipient>,
  ) {}

  create(values: Partial<EmailRecipient>): EmailRecipient {
    return this.recipients.create(values);
  }

  async insert(row: EmailRecipient): Promise<void> {
    await this.recipients.insert(row);
  }

  /** The account's confirmed addresses among `addresses` (distinct; more may come back). */
  async confirmedAmong(
    accountId: string,
    addresses: readonly string[],
  ): Promise<string[]> {
    const rows = await this.recipients.find({
      where: { accountId, ...among(addresses), status: 'confirmed' },
      select: { address: true },
    });
    return rows.map((row) => row.address);
  }

  /** The account's pending addresses among `addresses` whose last link could not be sent. */
  sendErrorsAmong(
    accountId: string,
    addresses: readonly string[],
  ): Promise<Array<Pick<EmailRecipient, 'address' | 'lastError'>>> {
    return this.recipients.find({
      where: {
        accountId,
        ...among(addresses),
        status: 'pending',
        lastError: Not(IsNull()),
      },
      select: { address: true, lastError: true },
    });
  }

  /** The account's rows of these addresses. */
  known(
    accountId: string,
    addresses: readonly string[],
  ): Promise<EmailRecipient[]> {
    return this.recipients.find({
      where: { accountId, address: In([...addresses]) },
    });
  }

  findByTokenHash(tokenHash: string): Promise<EmailRecipient | null> {
    return this.recipients.findOneBy({ tokenHash });
  }

  /**
   * Takes the right to mail a pending address a link with `tokenHash` until
   * `tokenExpiresAt`: only one request wins, and only when no link was sent yet or the
   * last one expired by `now`.
   */
  async claimSending(
    id: string,
    tokenHash: string,
    now: Date,
    tokenExpiresAt: Date,
  ): Promise<boolean> {
    const values = { tokenHash, tokenExpiresAt };
    const cases: FindOperator<Date>[] = [IsNull(), LessThanOrEqual(now)];
    for (const expiry of cases) {
      const result = await this.recipients.update(
        { id, status: 'pending', tokenExpiresAt: expiry },
        values,
      );
      if (result.affected) return true;
    }
    return false;
  }

  /** Forgets the link `tokenHash` (not sent): the address waits as if never sent one. */
  async dropLink(id: string, tokenHash: string): Promise<void> {
    await this.recipients.update(
      { id, tokenHash },
      { tokenHash: null, tokenExpiresAt: null },
    );
  }

  /** Forgets the link `tokenHash` and records why it could not be sent. */
  async recordSendError(
    id: string,
    tokenHash: string,
    lastError: string,
    at: Date,
  ): Promise<void> {
    await this.recipients.update(
      { id, tokenHash },
      { tokenHash: null, tokenExpiresAt: null, lastError, lastErrorAt: at },
    );
  }

  async clearSendError(id: string): Promise<void> {
    await this.recipients.update({ id }, { lastError: null });
  }

  /** Confirms the pending address of link `tokenHash` at `now`; false when it was not. */
  async confirm(id: string, tokenHash: string, now: Date): Promise<boolean> {
    const result = await this.recipients.update(
      { id, status: 'pending', tokenHash },
      { status: 'confirmed', confirmedAt: now },
    );
    return Boolean(result.affected);
  }
}
