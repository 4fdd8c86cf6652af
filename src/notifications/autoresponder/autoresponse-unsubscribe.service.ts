// The one-click unsubscribe of autoresponses (RFC 8058): a link signed with a key derived
// from APP_SECRET names an account and the hash of an address; following it (a POST) stops
// that account's autoresponses to that address. The link is its own proof — whoever holds
// it received the mail — so the POST needs no CSRF token, as a mail client's one-click
// request carries none.
import { Injectable } from '@nestjs/common';
import { createHash, createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { AppConfig } from '../../config/app-config.js';
import {
  AutoresponseUnsubscribeRepository,
  type UnsubscribeSubject,
} from './autoresponse-unsubscribe.repository.js';

export type { UnsubscribeSubject };

export const UNSUBSCRIBE_PATH = 'unsubscribe';

/** SHA-256 of the lower-cased address, hex: how an address is kept and counted. */
export function addressHash(address: string): string {
  return createHash('sha256')
    .update(address.trim().toLowerCase())
    .digest('hex');
}

@Injectable()
export class AutoresponseUnsubscribeService {
  private readonly key: Buffer;

  constructor(
    private readonly config: AppConfig,
    private readonly unsubscribes: AutoresponseUnsubscribeRepository,
  ) {
    this.key = Buffer.from(
      hkdfSync(
        'sha256',
        config.appSecret,
        'formgate',
        'formgate:autoresponse-unsubscribe',
        32,
      ),
    );
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.key).update(payload).digest('base64url');
  }

  /** `<accountId>.<addressHash>.<signature>` */
  token(accountId: string, address: string): string {
    const payload = `${accountId}.${addressHash(address)}`;
    return `${payload}.${this.sign(payload)}`;
  }

  link(accountId: string, address: string): string {
    return `${this.config.publicUrl}/${UNSUBSCRIBE_PATH}/${this.token(accountId, address)}`;
  }

  /** What a token names, or null when it is not one this service signed. */
  verify(token: string): UnsubscribeSubject | null {
    if (typeof token !== 'string' || token.length > 200) return null;
    const parts = token.split('.');
    if (parts.length !== 3) return null;
    const [accountId, hash, signature] = parts;
    if (!/^[0-9a-f]{64}$/.test(hash) || accountId === '') return null;
    const expected = Buffer.from(this.sign(`${accountId}.${hash}`));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
      return null;
    }
    return { accountId, addressHash: hash };
  }

  isStopped(subject: UnsubscribeSubject): Promise<boolean> {
    return this.unsubscribes.isStopped(subject);
  }

  /** Stops the account's autoresponses to the address (once; repeating changes nothing). */
  async stop(subject: UnsubscribeSubject): Promise<void> {
    await this.unsubscribes.stop(subject, new Date());
  }
}
