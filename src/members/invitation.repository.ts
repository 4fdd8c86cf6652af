// Every statement on the invitation table: the pending ones an account lists and counts,
// finding one by id or by its link's token hash, and the changes of one (made, renewed,
// revoked, used), each conditional on it still being pending at `now` and run in the
// caller's transaction, beside its audit event.
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, MoreThan, Repository, type EntityManager } from 'typeorm';
import { Invitation } from '../accounts/invitation.entity.js';

/** Where a pending invitation is: neither accepted nor revoked, and not expired at `now`. */
function pendingWhere(now: Date) {
  return {
    acceptedAt: IsNull(),
    revokedAt: IsNull(),
    expiresAt: MoreThan(now),
  };
}

@Injectable()
export class InvitationRepository {
  constructor(
    @InjectRepository(Invitation)
    private readonly invitations: Repository<Invitation>,
  ) {}

  /** The account's pending invitations, newest first. */
  listPending(accountId: string, now: Date): Promise<Invitation[]> {
    return this.invitations.find({
      where: { accountId, ...pendingWhere(now) },
      order: { createdAt: 'DESC', id: 'DESC' },
    });
  }

  hasPending(accountId: string, email: string, now: Date): Promise<boolean> {
    return this.invitations.existsBy({
      accountId,
      email,
      ...pendingWhere(now),
    });
  }

  countPending(accountId: string, now: Date): Promise<number> {
    return this.invitations.countBy({ accountId, ...pendingWhere(now) });
  }

  findPending(
    accountId: string,
    id: string,
    now: Date,
  ): Promise<Invitation | null> {
    return this.invitations.findOneBy({ id, accountId, ...pendingWhere(now) });
  }

  /** The invitation a link stands for, whatever its state. */
  findByTokenHash(tokenHash: string): Promise<Invitation | null> {
    return this.invitations.findOneBy({ tokenHash });
  }

  /** Builds an invitation entity (the creation time is stamped on insert). */
  create(values: Omit<Invitation, 'account' | 'invitedBy'>): Invitation {
    return this.invitations.create(values);
  }

  async insert(manager: EntityManager, invitation: Invitation): Promise<void> {
    await manager.insert(Invitation, invitation);
  }

  /** A new link and expiry for a pending invitation; false when it is no longer pending. */
  async renew(
    manager: EntityManager,
    id: string,
    change: { tokenHash: string; expiresAt: Date },
    now: Date,
  ): Promise<boolean> {
    return affected(
      await manager.update(Invitation, { id, ...pendingWhere(now) }, change),
    );
  }

  /** Revokes a pending invitation; false when it is no longer pending. */
  async revoke(
    manager: EntityManager,
    id: string,
    now: Date,
  ): Promise<boolean> {
    return affected(
      await manager.update(
        Invitation,
        { id, ...pendingWhere(now) },
        { revokedAt: now },
      ),
    );
  }

  /** Uses a pending invitation once; false when it was used or revoked meanwhile. */
  async use(manager: EntityManager, id: string, now: Date): Promise<boolean> {
    return affected(
      await manager.update(
        Invitation,
        { id, ...pendingWhere(now) },
        { acceptedAt: now },
      ),
    );
  }
}

function affected(result: { affected?: number | null }): boolean {
  return (result.affected ?? 0) > 0;
}
