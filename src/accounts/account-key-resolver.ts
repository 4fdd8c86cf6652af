import { ForbiddenException, Injectable } from '@nestjs/common';
import { API_KEY_EXPIRED } from '../auth/api-key.guard.js';
import type { KeyPrincipals } from '../auth/key-principals.js';
import { keyUseIsStale } from '../auth/key-use.js';
import type { ApiPrincipal } from '../auth/principal.js';
import { AccountApiKeyRepository } from './account-api-key.repository.js';

/**
 * ACCOUNT_KEY_PRINCIPALS: an account key that is not revoked reaches every form of its
 * account with its role (read from the row on every request, so a revocation applies on
 * every instance at once); past its expiry it is refused with 403
 * "API key expired". Each use is recorded, at most once a minute, for the account page.
 */
@Injectable()
export class AccountKeyResolver implements KeyPrincipals {
  constructor(private readonly accountKeys: AccountApiKeyRepository) {}

  async principalFor(keyHash: string): Promise<ApiPrincipal | undefined> {
    const now = new Date();
    const accountKey = await this.accountKeys.findByHash(keyHash);
    if (!accountKey) return undefined;
    if (accountKey.expiresAt && accountKey.expiresAt <= now) {
      throw new ForbiddenException(API_KEY_EXPIRED);
    }
    if (keyUseIsStale(accountKey.lastUsedAt, now)) {
      await this.accountKeys.markUsed(accountKey.id, now);
    }
    return {
      kind: 'account',
      accountId: accountKey.accountId,
      keyId: accountKey.id,
      role: accountKey.role,
      label: accountKey.prefix,
      ...(accountKey.expiresAt ? { keyExpiresAt: accountKey.expiresAt } : {}),
    };
  }
}
