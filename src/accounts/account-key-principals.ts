import { Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, Repository } from 'typeorm';
import type { KeyPrincipals } from '../auth/key-principals.js';
import type { ApiPrincipal } from '../auth/principal.js';
import { AccountApiKey } from './account-api-key.entity.js';

/** lastUsedAt is written at most this often per key, to keep reads cheap. */
const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * ACCOUNT_KEY_PRINCIPALS: an account key that is not revoked reaches every form of its
 * account. Each use is recorded (at most once a minute) for the account page.
 */
@Injectable()
export class AccountKeyPrincipals implements KeyPrincipals {
  private readonly logger = new Logger('ApiKeyService');

  constructor(
    @InjectRepository(AccountApiKey)
    private readonly accountKeys: Repository<AccountApiKey>,
  ) {}

  async principalFor(keyHash: string): Promise<ApiPrincipal | undefined> {
    const accountKey = await this.accountKeys.findOne({
      where: { keyHash, revokedAt: IsNull() },
      select: { id: true, accountId: true, lastUsedAt: true },
    });
    if (!accountKey) return undefined;
    this.touch(accountKey);
    return {
      kind: 'account',
      accountId: accountKey.accountId,
      keyId: accountKey.id,
    };
  }

  private touch(key: AccountApiKey): void {
    const now = Date.now();
    if (
      key.lastUsedAt &&
      now - key.lastUsedAt.getTime() < LAST_USED_RESOLUTION_MS
    )
      return;
    this.accountKeys
      .update({ id: key.id }, { lastUsedAt: new Date(now) })
      .catch((error) => {
        this.logger.warn(
          `Could not record key use: ${(error as Error).message}`,
        );
      });
  }
}
