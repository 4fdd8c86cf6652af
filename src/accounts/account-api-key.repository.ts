// Every statement on account_api_key: creating, listing and revoking an account's keys,
// the key guard's lookup with its mark of use (auth/key-use.ts), and a key's name (the
// members feature says which key sent an invitation).
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, Repository, type EntityManager } from 'typeorm';
import { recordKeyUse } from '../auth/key-use.js';
import { AccountApiKey } from './account-api-key.entity.js';

/** What the key guard reads of a key that is not revoked. */
export type ActiveKey = Pick<
  AccountApiKey,
  'id' | 'accountId' | 'prefix' | 'lastUsedAt' | 'role' | 'expiresAt'
>;

@Injectable()
export class AccountApiKeyRepository {
  constructor(
    @InjectRepository(AccountApiKey)
    private readonly keys: Repository<AccountApiKey>,
  ) {}

  /** This repository working in `manager`'s transaction (a change and its audit event). */
  in(manager: EntityManager): AccountApiKeyRepository {
    return new AccountApiKeyRepository(manager.getRepository(AccountApiKey));
  }

  create(values: Partial<AccountApiKey>): AccountApiKey {
    return this.keys.create(values);
  }

  async insert(key: AccountApiKey): Promise<void> {
    await this.keys.insert(key);
  }

  /** Every key of the account, revoked ones included, newest first. */
  listOf(accountId: string): Promise<AccountApiKey[]> {
    return this.keys.find({
      where: { accountId },
      order: { createdAt: 'DESC', id: 'DESC' },
    });
  }

  /** The keys that are not revoked, newest first. */
  activeOf(accountId: string): Promise<AccountApiKey[]> {
    return this.keys.find({
      where: { accountId, revokedAt: IsNull() },
      order: { createdAt: 'DESC', id: 'DESC' },
    });
  }

  /** When the key expires (null: never, or no such key). */
  async expiryOf(id: string): Promise<Date | null> {
    const key = await this.keys.findOne({
      where: { id },
      select: { id: true, expiresAt: true },
    });
    return key?.expiresAt ?? null;
  }

  /** The key's name, or null when there is no such key. */
  async nameOf(id: string): Promise<string | null> {
    const key = await this.keys.findOne({
      where: { id },
      select: { id: true, name: true },
    });
    return key?.name ?? null;
  }

  /** The account's key when it is not revoked, with its expiry. */
  findActive(
    id: string,
    accountId: string,
  ): Promise<Pick<AccountApiKey, 'id' | 'expiresAt'> | null> {
    return this.keys.findOne({
      where: { id, accountId, revokedAt: IsNull() },
      select: { id: true, expiresAt: true },
    });
  }

  /** Revokes the account's key at `at`; false when it was not there or already revoked. */
  async revoke(id: string, accountId: string, at: Date): Promise<boolean> {
    const result = await this.keys.update(
      { id, accountId, revokedAt: IsNull() },
      { revokedAt: at },
    );
    return Boolean(result.affected);
  }

  /** The key with this hash that is not revoked (the key guard's lookup). */
  findByHash(keyHash: string): Promise<ActiveKey | null> {
    return this.keys.findOne({
      where: { keyHash, revokedAt: IsNull() },
      select: {
        id: true,
        accountId: true,
        prefix: true,
        lastUsedAt: true,
        role: true,
        expiresAt: true,
      },
    });
  }

  /** Marks the key used at `now` (at most once a minute). */
  markUsed(id: string, now: Date): Promise<boolean> {
    return recordKeyUse(
      this.keys.createQueryBuilder().update(),
      id,
      'lastUsedAt',
      now,
    );
  }
}
