import {
  Inject,
  Injectable,
  Optional,
  type OnModuleDestroy,
  type OnModuleInit,
} from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Role } from '../auth/permissions.js';
import {
  MEMBERSHIP_CHANGES,
  type MembershipChange,
  type MembershipChanges,
} from './membership-changes.js';
import { MembershipRepository } from './membership.repository.js';

/** One account a user belongs to, as the dashboard needs it. */
export interface AccountMembership {
  accountId: string;
  accountName: string;
  role: Role;
}

/**
 * How long a user's memberships are remembered in process. Changes are announced to every
 * instance (membership-changes.ts), so this only bounds how stale an instance may be while
 * it cannot hear them (no Redis with several instances, or Redis away).
 */
export const MEMBERSHIP_CACHE_MS = 5_000;
const MAX_CACHED_USERS = 10_000;

interface Cached {
  memberships: AccountMembership[];
  expiresAt: number;
}

/** Who is a member of which account, with which role. */
@Injectable()
export class MembershipsService implements OnModuleInit, OnModuleDestroy {
  private readonly cache = new Map<string, Cached>();
  /** Bumped by every change, so a read that raced one is not cached. */
  private generation = 0;
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly memberships: MembershipRepository,
    @Optional()
    @Inject(MEMBERSHIP_CHANGES)
    private readonly changes?: MembershipChanges,
  ) {}

  onModuleInit(): void {
    this.unsubscribe = this.changes?.subscribeMemberships((change) =>
      this.forget(change),
    );
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
  }

  /** Every account the user is a member of, by name (cached briefly). */
  async accountsOf(userId: string): Promise<AccountMembership[]> {
    const cached = this.cache.get(userId);
    if (cached && cached.expiresAt > Date.now()) return cached.memberships;
    const generation = this.generation;
    const rows = await this.memberships.accountsOf(userId);
    const memberships = rows.map((row) => ({
      accountId: row.accountId,
      accountName: row.accountName,
      role: row.role,
    }));
    if (generation === this.generation) {
      if (this.cache.size >= MAX_CACHED_USERS) this.cache.clear();
      this.cache.set(userId, {
        memberships,
        expiresAt: Date.now() + MEMBERSHIP_CACHE_MS,
      });
    }
    return memberships;
  }

  /** The user's membership of the account, or undefined when they are not a member. */
  async membershipOf(
    userId: string,
    accountId: string,
  ): Promise<AccountMembership | undefined> {
    const memberships = await this.accountsOf(userId);
    return memberships.find((entry) => entry.accountId === accountId);
  }

  /** Makes the user a member with this role (or changes their role), and says so. */
  async put(
    accountId: string,
    userId: string,
    role: Role,
    manager?: EntityManager,
  ): Promise<void> {
    const memberships = manager
      ? this.memberships.in(manager)
      : this.memberships;
    await memberships.put(accountId, userId, role, new Date());
    this.changed(accountId, userId);
  }

  /** How many members the account has. */
  countMembers(accountId: string): Promise<number> {
    return this.memberships.countOf(accountId);
  }

  /** Ends the user's membership of the account, and says so. */
  async remove(accountId: string, userId: string): Promise<boolean> {
    const removed = await this.memberships.delete(accountId, userId);
    this.changed(accountId, userId);
    return removed;
  }

  /**
   * Announces a change of one membership (or, without `userId`, of the account: its name)
   * to this instance and every other, so it applies on the person's next request.
   */
  changed(accountId: string, userId?: string): void {
    const change: MembershipChange = { kind: 'membership', accountId, userId };
    if (this.changes) this.changes.membershipChanged(accountId, userId);
    else this.forget(change);
  }

  private forget(change: MembershipChange): void {
    this.generation += 1;
    if (change.kind === 'reset') {
      this.cache.clear();
    } else if (change.userId !== undefined) {
      this.cache.delete(change.userId);
    } else {
      for (const [userId, cached] of this.cache) {
        if (cached.memberships.some((m) => m.accountId === change.accountId)) {
          this.cache.delete(userId);
        }
      }
    }
  }
}
