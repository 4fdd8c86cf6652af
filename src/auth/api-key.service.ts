import { Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, Repository } from 'typeorm';
import { AccountApiKey } from '../accounts/account-api-key.entity.js';
import { Form } from '../forms/form.entity.js';
import { apiKeyKind, hashApiKey } from './api-keys.js';
import type { ApiPrincipal } from './principal.js';

/** lastUsedAt is written at most this often per key, to keep reads cheap. */
const LAST_USED_RESOLUTION_MS = 60_000;

@Injectable()
export class ApiKeyService {
  private readonly logger = new Logger(ApiKeyService.name);

  constructor(
    @InjectRepository(Form) private readonly forms: Repository<Form>,
    @InjectRepository(AccountApiKey)
    private readonly accountKeys: Repository<AccountApiKey>,
  ) {}

  /** Resolves a presented key to its principal by hash; undefined when it matches nothing. */
  async authenticate(key: string): Promise<ApiPrincipal | undefined> {
    const kind = apiKeyKind(key);
    if (kind === undefined || key.length > 200) return undefined;
    const hash = hashApiKey(key);
    if (kind === 'form') {
      const form = await this.forms.findOne({
        where: { apiKeyHash: hash },
        select: { id: true, accountId: true },
      });
      return form
        ? { kind: 'form', accountId: form.accountId, formId: form.id }
        : undefined;
    }
    const accountKey = await this.accountKeys.findOne({
      where: { keyHash: hash, revokedAt: IsNull() },
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
