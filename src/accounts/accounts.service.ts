import {
  ConflictException,
  ForbiddenException,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { SYSTEM_ACTOR, type AuditActor } from '../audit/audit-actor.js';
import { AuditLogService } from '../audit/audit-log.service.js';
import { generateApiKey } from '../auth/api-keys.js';
import type { ApiPrincipal } from '../auth/principal.js';
import {
  DEFAULT_KEY_ROLE,
  keyRoleOf,
  LEGACY_KEY_ROLE,
  roleAtMost,
  type KeyRole,
  type Role,
} from '../auth/permissions.js';
import { isUniqueViolation } from '../common/database/driver-errors.js';
import { ValidationFailedException } from '../common/errors/errors.js';
import type { AccountApiKey } from './account-api-key.entity.js';
import { AccountApiKeyRepository } from './account-api-key.repository.js';
import { accountKeyResponse, newKeyProblems } from './account-key-rules.js';
import type {
  AccountKeyResponseDto,
  CreatedAccountKeyResponseDto,
} from './dto/account-key-response.dto.js';
import type { CreateAccountKeyDto } from './dto/create-account-key.dto.js';
import type { Account } from './account.entity.js';
import { AccountRepository } from './account.repository.js';
import { MembershipRepository } from './membership.repository.js';
import type { User } from './user.entity.js';
import { UserRepository } from './user.repository.js';
import {
  EXPIRES_AT_FORMAT,
  outlivedKeyMessage,
  outlives,
  parseExpiry,
} from './key-expiry.js';
import { hashPassword, passwordProblems, verifyPassword } from './password.js';
import { isEmailAddress } from '../common/values/email-address.js';
import { newUlid } from '../common/values/ulid.js';

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export const ACCOUNT_KEY_NOT_FOUND = 'API key not found';

export const ACCOUNT_EXISTS = 'An account with this email already exists';

/** A sign-up: the person, and the account they own. */
export interface SignedUp {
  user: User;
  account: Account;
}

export interface AccountKeyOptions {
  /** Default `admin` (what keys made before roles, and by the CLI, are). */
  role?: KeyRole;
  /** The older name of the `viewer` role. */
  readOnly?: boolean;
  expiresAt?: Date | null;
  /** The creating key's own expiry: the new key may not outlive it. */
  limit?: Date | null;
  /** Who creates it, as the audit log records it (the service itself by default). */
  by?: ApiPrincipal | AuditActor;
}

export interface CreatedAccountKey {
  key: AccountApiKey;
  /** The full key: shown once, never stored in clear. */
  apiKey: string;
}

/** "This key cannot create a key above its own role (developer)". */
export function keyAboveCreator(limit: Role): string {
  return `This key cannot create a key above its own role (${limit})`;
}

@Injectable()
export class AccountsService {
  constructor(
    private readonly accounts: AccountRepository,
    private readonly users: UserRepository,
    private readonly keys: AccountApiKeyRepository,
    private readonly memberships: MembershipRepository,
    private readonly dataSource: DataSource,
    private readonly auditLog: AuditLogService,
  ) {}

  /**
   * A sign-up: a user with this address and password, a new account named after the
   * address, and the user its owner.
   */
  async create(email: string, password: string): Promise<SignedUp> {
    const user = await this.newUser(email, password);
    // The account's id is its first owner's, as the migration gave every older account.
    const account = this.accounts.create({
      id: user.id,
      name: user.email.slice(0, 200),
      createdAt: user.createdAt,
      updatedAt: user.createdAt,
    });
    await this.insertUser(user, async (manager) => {
      await this.accounts.in(manager).insert(account);
      await this.memberships.in(manager).insert({
        accountId: account.id,
        userId: user.id,
        role: 'owner',
        createdAt: user.createdAt,
        updatedAt: user.createdAt,
      });
    });
    return { user, account };
  }

  /**
   * A user without an account of their own (someone signing up from an invitation, who
   * becomes a member of the inviting account, or a person joining through SSO: password
   * null, they cannot sign in with one). `verified`: the address is proven.
   */
  async createUser(
    email: string,
    password: string | null,
    options: { verified?: boolean } = {},
    alongside?: (manager: EntityManager) => Promise<void>,
  ): Promise<User> {
    const user = await this.newUser(email, password);
    if (options.verified) user.emailVerifiedAt = user.createdAt;
    await this.insertUser(user, alongside);
    return user;
  }

  private async newUser(email: string, password: string | null): Promise<User> {
    const normalized = normalizeEmail(email);
    const problems = [
      ...(isEmailAddress(normalized)
        ? []
        : ['email must be a valid email address']),
      ...(password === null ? [] : passwordProblems(password)),
    ];
    if (problems.length > 0) throw new ValidationFailedException(problems);
    if (await this.users.existsWithEmail(normalized)) {
      throw new ConflictException(ACCOUNT_EXISTS);
    }
    const now = new Date();
    return this.users.create({
      id: newUlid(),
      email: normalized,
      passwordHash: password === null ? null : await hashPassword(password),
      emailVerifiedAt: null,
      createdAt: now,
      updatedAt: now,
    });
  }

  /**
   * Inserts the user, then what goes with it; if that fails, the user goes again. Not one
   * transaction: on SQLite every request shares one connection, where two sign-ups'
   * transactions would collide. The user's unique address is what can refuse a sign-up,
   * and it is written first.
   */
  private async insertUser(
    user: User,
    alongside?: (manager: EntityManager) => Promise<void>,
  ): Promise<void> {
    try {
      await this.users.insert(user);
    } catch (error) {
      // A sign-up racing this one with the same address got there first.
      if (isUniqueViolation(error)) throw new ConflictException(ACCOUNT_EXISTS);
      throw error;
    }
    try {
      await alongside?.(this.dataSource.manager);
    } catch (error) {
      await this.users.delete(user.id);
      throw error;
    }
  }

  findUserByEmail(email: string): Promise<User | null> {
    return this.users.findByEmail(normalizeEmail(email));
  }

  /** The user signed in just now (the members list shows when). */
  async recordSignIn(userId: string, at = new Date()): Promise<void> {
    await this.users.recordSignIn(userId, at);
  }

  findUserById(id: string): Promise<User | null> {
    return this.users.findById(id);
  }

  /** The ids of the accounts the user with this address owns, oldest first (the CLI). */
  async accountsOwnedBy(email: string): Promise<string[]> {
    const user = await this.findUserByEmail(email);
    if (!user) return [];
    return this.memberships.ownedBy(user.id);
  }

  /** The first account the user with this address owns, or null (tests, tools). */
  async findByEmail(email: string): Promise<Account | null> {
    const [first] = await this.accountsOwnedBy(email);
    return first === undefined ? null : this.findById(first);
  }

  findById(id: string): Promise<Account | null> {
    return this.accounts.findById(id);
  }

  /** The user when the password matches, else null (same answer for unknown emails). */
  async authenticate(email: string, password: string): Promise<User | null> {
    const user = await this.users.withPasswordHash(normalizeEmail(email));
    if (!user?.passwordHash) {
      // Spend the same time as a real check so response timing does not reveal accounts.
      await hashPassword(password);
      return null;
    }
    return (await verifyPassword(password, user.passwordHash)) ? user : null;
  }

  async changePassword(userId: string, password: string): Promise<void> {
    const problems = passwordProblems(password);
    if (problems.length > 0) throw new ValidationFailedException(problems);
    await this.users.setPasswordHash(
      userId,
      password === null ? null : await hashPassword(password),
      new Date(),
    );
  }

  /**
   * A new account key. `role`: what it may do (`readOnly`: a viewer). `expiresAt`: when it stops working
   * (in the future). `limit`: the expiry of the key creating it, if that one expires — a
   * key may not create one that outlives it.
   */
  async createApiKey(
    accountId: string,
    name: string,
    options: AccountKeyOptions = {},
  ): Promise<CreatedAccountKey> {
    const trimmed = name.trim();
    const expiresAt = options.expiresAt ?? null;
    const problems = newKeyProblems(trimmed, expiresAt, options.limit ?? null);
    if (problems.length > 0) throw new ValidationFailedException(problems);
    const role = keyRoleOf(options) ?? LEGACY_KEY_ROLE;
    const generated = generateApiKey('account');
    const key = this.keys.create({
      id: newUlid(),
      accountId,
      name: trimmed,
      keyHash: generated.hash,
      prefix: generated.prefix,
      lastUsedAt: null,
      revokedAt: null,
      role,
      readOnly: role === 'viewer',
      expiresAt,
    });
    await this.auditLog.recordChange(
      {
        accountId,
        actor: options.by ?? SYSTEM_ACTOR,
        action: 'account_key.created',
        target: { type: 'account_key', id: key.id },
        details: { name: trimmed, prefix: key.prefix, role, expiresAt },
      },
      async (manager) => (await this.keys.in(manager).insert(key), true),
    );
    return { key, apiKey: generated.key };
  }

  /** Every key of the account, revoked ones included, newest first (the dashboard). */
  listApiKeys(accountId: string): Promise<AccountApiKey[]> {
    return this.keys.listOf(accountId);
  }

  /** The keys that are not revoked (expired ones included), newest first (the API). */
  listActiveApiKeys(accountId: string): Promise<AccountApiKey[]> {
    return this.keys.activeOf(accountId);
  }

  /** When the key `keyId` expires, or null if never (or no such key). */
  async expiryOf(keyId: string): Promise<Date | null> {
    return this.keys.expiryOf(keyId);
  }

  /** The one place an account key becomes what the API shows. */
  describeKey(key: AccountApiKey): AccountKeyResponseDto {
    return accountKeyResponse(key);
  }

  /**
   * `POST /api/v1/account/keys` for `creator` (its key, when a key asks, and its role):
   * the new key's role is at most the creator's (403 otherwise); `readOnly` and `role`
   * must not say different things.
   */
  async createApiKeyFor(
    accountId: string,
    creator: { keyId: string | null; role: Role; by?: ApiPrincipal },
    input: CreateAccountKeyDto,
  ): Promise<CreatedAccountKeyResponseDto> {
    if (
      input.role !== undefined &&
      input.readOnly !== undefined &&
      input.readOnly !== (input.role === 'viewer')
    ) {
      throw new ValidationFailedException([
        'readOnly and role disagree: a read-only key is a viewer',
      ]);
    }
    const role = keyRoleOf(input) ?? DEFAULT_KEY_ROLE;
    if (!roleAtMost(role, creator.role)) {
      throw new ForbiddenException(keyAboveCreator(creator.role));
    }
    let expiresAt: Date | null = null;
    if (typeof input.expiresAt === 'string') {
      const parsed = parseExpiry(input.expiresAt);
      if (!parsed) throw new ValidationFailedException([EXPIRES_AT_FORMAT]);
      expiresAt = parsed;
    }
    const { key, apiKey } = await this.createApiKey(accountId, input.name, {
      role,
      expiresAt,
      limit: creator.keyId ? await this.expiryOf(creator.keyId) : null,
      by: creator.by,
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
    by: ApiPrincipal | AuditActor = SYSTEM_ACTOR,
  ): Promise<void> {
    if (limit !== undefined) {
      const target = await this.keys.findActive(keyId, accountId);
      if (!target) throw new NotFoundException(ACCOUNT_KEY_NOT_FOUND);
      if (outlives(target.expiresAt, limit)) {
        throw new ForbiddenException(outlivedKeyMessage(limit));
      }
    }
    const revoked = await this.auditLog.recordChange(
      {
        accountId,
        actor: by,
        action: 'account_key.revoked',
        target: { type: 'account_key', id: keyId },
      },
      (manager) => this.keys.in(manager).revoke(keyId, accountId, new Date()),
    );
    if (!revoked) throw new NotFoundException(ACCOUNT_KEY_NOT_FOUND);
  }
}
