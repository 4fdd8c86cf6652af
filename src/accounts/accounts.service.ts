import {
  ConflictException,
  ForbiddenException,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, Repository } from 'typeorm';
import { generateApiKey } from '../auth/api-keys.js';
import { isUniqueViolation } from '../common/database/driver-errors.js';
import { ValidationFailedException } from '../common/errors.js';
import { AccountApiKey } from './account-api-key.entity.js';
import type {
  AccountKeyResponseDto,
  CreatedAccountKeyResponseDto,
} from './dto/account-key-response.dto.js';
import type { CreateAccountKeyDto } from './dto/create-account-key.dto.js';
import { Account } from './account.entity.js';
import {
  EXPIRES_AT_FORMAT,
  outlivedKeyMessage,
  outlives,
  parseExpiry,
} from './key-expiry.js';
import { hashPassword, passwordProblems, verifyPassword } from './password.js';
import { isEmailAddress } from '../common/email-address.js';
import { newUlid } from '../common/ulid.js';

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export const ACCOUNT_KEY_NOT_FOUND = 'API key not found';

export interface AccountKeyOptions {
  readOnly?: boolean;
  expiresAt?: Date | null;
  /** The creating key's own expiry: the new key may not outlive it. */
  limit?: Date | null;
}

export interface CreatedAccountKey {
  key: AccountApiKey;
  /** The full key: shown once, never stored in clear. */
  apiKey: string;
}

@Injectable()
export class AccountsService {
  constructor(
    @InjectRepository(Account) private readonly accounts: Repository<Account>,
    @InjectRepository(AccountApiKey)
    private readonly keys: Repository<AccountApiKey>,
  ) {}

  async create(email: string, password: string): Promise<Account> {
    const normalized = normalizeEmail(email);
    const problems = [
      ...(isEmailAddress(normalized)
        ? []
        : ['email must be a valid email address']),
      ...passwordProblems(password),
    ];
    if (problems.length > 0) throw new ValidationFailedException(problems);
    if (await this.accounts.existsBy({ email: normalized })) {
      throw new ConflictException('An account with this email already exists');
    }
    const account = this.accounts.create({
      id: newUlid(),
      email: normalized,
      passwordHash: await hashPassword(password),
    });
    try {
      await this.accounts.insert(account);
    } catch (error) {
      // A sign-up racing this one with the same address got there first.
      if (isUniqueViolation(error)) {
        throw new ConflictException(
          'An account with this email already exists',
        );
      }
      throw error;
    }
    return account;
  }

  findByEmail(email: string): Promise<Account | null> {
    return this.accounts.findOneBy({ email: normalizeEmail(email) });
  }

  findById(id: string): Promise<Account | null> {
    return this.accounts.findOneBy({ id });
  }

  /** The account when the password matches, else null (same answer for unknown emails). */
  async authenticate(email: string, password: string): Promise<Account | null> {
    const account = await this.accounts.findOne({
      where: { email: normalizeEmail(email) },
      select: {
        id: true,
        email: true,
        passwordHash: true,
        createdAt: true,
        updatedAt: true,
      },
    });
    if (!account) {
      // Spend the same time as a real check so response timing does not reveal accounts.
      await hashPassword(password);
      return null;
    }
    return (await verifyPassword(password, account.passwordHash))
      ? account
      : null;
  }

  async changePassword(accountId: string, password: string): Promise<void> {
    const problems = passwordProblems(password);
    if (problems.length > 0) throw new ValidationFailedException(problems);
    await this.accounts.update(
      { id: accountId },
      {
        passwordHash: await hashPassword(password),
        updatedAt: new Date(),
      },
    );
  }

  /**
   * A new account key. `readOnly`: it may only read. `expiresAt`: when it stops working
   * (in the future). `limit`: the expiry of the key creating it, if that one expires — a
   * key may not create one that outlives it.
   */
  async createApiKey(
    accountId: string,
    name: string,
    options: AccountKeyOptions = {},
  ): Promise<CreatedAccountKey> {
    const trimmed = name.trim();
    const problems: string[] = [];
    if (trimmed.length < 1 || trimmed.length > 100) {
      problems.push('name must be 1 to 100 characters long');
    }
    const expiresAt = options.expiresAt ?? null;
    if (expiresAt && expiresAt.getTime() <= Date.now()) {
      problems.push('expiresAt must be in the future');
    }
    const limit = options.limit ?? null;
    if (limit && (!expiresAt || expiresAt > limit)) {
      problems.push(
        `expiresAt must be no later than ${limit.toISOString()}, when the key creating it expires`,
      );
    }
    if (problems.length > 0) throw new ValidationFailedException(problems);
    const generated = generateApiKey('account');
    const key = this.keys.create({
      id: newUlid(),
      accountId,
      name: trimmed,
      keyHash: generated.hash,
      prefix: generated.prefix,
      lastUsedAt: null,
      revokedAt: null,
      readOnly: options.readOnly ?? false,
      expiresAt,
    });
    await this.keys.insert(key);
    return { key, apiKey: generated.key };
  }

  /** Every key of the account, revoked ones included, newest first (the dashboard). */
  listApiKeys(accountId: string): Promise<AccountApiKey[]> {
    return this.keys.find({
      where: { accountId },
      order: { createdAt: 'DESC', id: 'DESC' },
    });
  }

  /** The keys that are not revoked (expired ones included), newest first (the API). */
  listActiveApiKeys(accountId: string): Promise<AccountApiKey[]> {
    return this.keys.find({
      where: { accountId, revokedAt: IsNull() },
      order: { createdAt: 'DESC', id: 'DESC' },
    });
  }

  /** When the key `keyId` expires, or null if never (or no such key). */
  async expiryOf(keyId: string): Promise<Date | null> {
    const key = await this.keys.findOne({
      where: { id: keyId },
      select: { id: true, expiresAt: true },
    });
    return key?.expiresAt ?? null;
  }

  /** The one place an account key becomes what the API shows. */
  describeKey(key: AccountApiKey): AccountKeyResponseDto {
    return {
      id: key.id,
      name: key.name,
      prefix: key.prefix,
      createdAt: key.createdAt.toISOString(),
      lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
      readOnly: Boolean(key.readOnly),
      expiresAt: key.expiresAt?.toISOString() ?? null,
    };
  }

  /** `POST /api/v1/account/keys` for the account key `creatorKeyId`. */
  async createApiKeyFor(
    accountId: string,
    creatorKeyId: string,
    input: CreateAccountKeyDto,
  ): Promise<CreatedAccountKeyResponseDto> {
    let expiresAt: Date | null = null;
    if (typeof input.expiresAt === 'string') {
      const parsed = parseExpiry(input.expiresAt);
      if (!parsed) throw new ValidationFailedException([EXPIRES_AT_FORMAT]);
      expiresAt = parsed;
    }
    const { key, apiKey } = await this.createApiKey(accountId, input.name, {
      readOnly: input.readOnly ?? false,
      expiresAt,
      limit: await this.expiryOf(creatorKeyId),
    });
    return Object.assign(this.describeKey(key), { apiKey });
  }

  /**
   * Revokes the key. `limit`: the expiry of the key asking, if it expires — a key that
   * outlives it is not its to revoke (403).
   */
  async revokeApiKey(
    accountId: string,
    keyId: string,
    limit?: Date,
  ): Promise<void> {
    if (limit !== undefined) {
      const target = await this.keys.findOne({
        where: { id: keyId, accountId, revokedAt: IsNull() },
        select: { id: true, expiresAt: true },
      });
      if (!target) throw new NotFoundException(ACCOUNT_KEY_NOT_FOUND);
      if (outlives(target.expiresAt, limit)) {
        throw new ForbiddenException(outlivedKeyMessage(limit));
      }
    }
    const result = await this.keys.update(
      { id: keyId, accountId, revokedAt: IsNull() },
      { revokedAt: new Date() },
    );
    if (!result.affected) throw new NotFoundException(ACCOUNT_KEY_NOT_FOUND);
  }
}
