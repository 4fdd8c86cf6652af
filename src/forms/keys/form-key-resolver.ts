import { ForbiddenException, Injectable } from '@nestjs/common';
import { API_KEY_EXPIRED } from '../../auth/api-key.guard.js';
import type { KeyPrincipals } from '../../auth/key-principals.js';
import { keyUseIsStale } from '../../auth/key-use.js';
import type { ApiPrincipal } from '../../auth/principal.js';
import { FormRepository } from '../form.repository.js';

/**
 * FORM_KEY_PRINCIPALS: a form key reaches its own form, found by the key's hash — the
 * current key, or the previous one while its grace period after a rotation lasts. Read
 * from the database on every request (never cached), so a rotation or the end of a grace
 * period applies on every instance at once. A key made by an expiring key is refused with
 * 403 "API key expired" once past its own expiry. Each use is recorded, at most once a minute.
 */
@Injectable()
export class FormKeyResolver implements KeyPrincipals {
  constructor(private readonly forms: FormRepository) {}

  async principalFor(keyHash: string): Promise<ApiPrincipal | undefined> {
    const now = new Date();
    const current = await this.forms.findByKeyHash(keyHash);
    if (current) {
      const expiresAt = current.apiKeyExpiresAt;
      if (expiresAt && expiresAt <= now) {
        throw new ForbiddenException(API_KEY_EXPIRED);
      }
      if (keyUseIsStale(current.apiKeyLastUsedAt, now)) {
        await this.forms.markKeyUsed(current.id, 'apiKeyLastUsedAt', now);
      }
      return {
        kind: 'form',
        accountId: current.accountId,
        formId: current.id,
        previousKey: false,
        label: current.apiKeyPrefix,
        ...(expiresAt ? { keyExpiresAt: expiresAt } : {}),
      };
    }
    const previous = await this.forms.findByPreviousKeyHash(keyHash);
    // Compared here rather than in SQL: the application's clock decides, as it does
    // when it sets the expiry.
    if (
      !previous?.previousApiKeyExpiresAt ||
      previous.previousApiKeyExpiresAt <= now
    ) {
      return undefined;
    }
    if (keyUseIsStale(previous.previousApiKeyLastUsedAt, now)) {
      await this.forms.markKeyUsed(
        previous.id,
        'previousApiKeyLastUsedAt',
        now,
      );
    }
    // The retiring key may read and work submissions only (principalCan): a leaked key
    // being rotated away cannot rotate again, delete or change the form.
    return {
      kind: 'form',
      accountId: previous.accountId,
      formId: previous.id,
      previousKey: true,
      label: previous.previousApiKeyPrefix ?? '',
      keyExpiresAt: previous.previousApiKeyExpiresAt,
    };
  }
}
